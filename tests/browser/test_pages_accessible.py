"""Every page of ``PAGES`` (test_pages.py) in the light and the dark colour scheme:
accessible (axe-core, WCAG 2.1 A and AA), nothing scrolling sideways, no request to any host
but the app's own. Each page is loaded once and looked at in both schemes, the phone's
preference switched in between: the schemes are the style sheets' alone (no script reads
the preference), as ``test_no_script_reads_the_colour_scheme`` makes sure."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import PhoneFactory, Site, scripts_reading
from tests.browser.test_pages import (
    PAGE_IDS,
    PAGES,
    Page,
    axe_violations,
    describe_violations,
    foreign_request_problems,
    open_page,
    overflow_problems,
    save_screenshot,
)

SCHEMES = ["light", "dark"]
#: What a script reads to draw a page by the phone's colour scheme.
SCHEME_READS = re.compile(r"prefers-color-scheme|colorScheme|matchMedia")


def test_no_script_reads_the_colour_scheme() -> None:
    """Switching a loaded page's scheme (below) stands for loading it in that scheme only
    while the scheme is the style sheets' alone (the pages' scripts are all in static/: the
    Content-Security-Policy allows no inline script)."""
    assert scripts_reading(SCHEME_READS) == []


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_page_is_accessible_and_fits_the_phone(
    shared_phones: PhoneFactory, site: Site, axe_source: str, page: Page
) -> None:
    """In each scheme axe-core finds no WCAG 2.1 A/AA violation and nothing scrolls
    sideways; every request stays on the app's host."""
    phone = shared_phones("schemes", storage_state=site.state)
    phone.context.add_cookies([{"name": "lang", "value": "en", "url": site.base_url}])
    phone.page.emulate_media(color_scheme=SCHEMES[0])
    problems = open_page(phone, site, page, page.name)
    lang = phone.page.locator("html").get_attribute("lang")
    if lang != "en":
        problems.append(f"{page.name}: <html lang={lang!r}>, expected 'en'")
    backgrounds = set()
    for scheme in SCHEMES:
        phone.page.emulate_media(color_scheme=scheme)
        where = f"{page.name} ({scheme})"
        backgrounds.add(phone.page.evaluate("getComputedStyle(document.body).backgroundColor"))
        save_screenshot(phone, f"{page.name}-{scheme}")
        problems += describe_violations(axe_violations(phone, axe_source), where)
        problems += overflow_problems(phone, where)
    if len(backgrounds) != len(SCHEMES):
        problems.append(f"{page.name}: one background in both schemes: {backgrounds}")
    problems += foreign_request_problems(phone, page.name)
    assert not problems, "\n".join(problems)
