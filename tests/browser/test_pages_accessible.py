"""Every page of ``PAGES`` (test_pages.py) in the light and the dark colour scheme:
accessible (axe-core, WCAG 2.1 A and AA), nothing scrolling sideways, no request to any host
but the app's own."""

from __future__ import annotations

import pytest

from tests.browser.support import PhoneFactory, Site
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


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_page_is_accessible_and_fits_the_phone(
    shared_phones: PhoneFactory, site: Site, axe_source: str, page: Page, scheme: str
) -> None:
    """axe-core finds no WCAG 2.1 A/AA violation, nothing scrolls sideways, every request
    stays on the app's host."""
    phone = shared_phones(scheme, color_scheme=scheme, storage_state=site.state)
    phone.context.add_cookies([{"name": "lang", "value": "en", "url": site.base_url}])
    where = f"{page.name} ({scheme})"
    problems = open_page(phone, site, page, where)
    lang = phone.page.locator("html").get_attribute("lang")
    if lang != "en":
        problems.append(f"{where}: <html lang={lang!r}>, expected 'en'")
    save_screenshot(phone, f"{page.name}-{scheme}")
    problems += describe_violations(axe_violations(phone, axe_source), where)
    problems += overflow_problems(phone, where)
    problems += foreign_request_problems(phone, where)
    assert not problems, "\n".join(problems)
