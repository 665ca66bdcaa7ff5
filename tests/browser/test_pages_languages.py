"""Every page of ``PAGES`` (test_pages.py) in each of the five languages, at 390 and 360 px:
it says its language, and its longer words still fit."""

from __future__ import annotations

import re

import pytest

from tests.browser.support import PHONE, PhoneFactory, Site, scripts_reading
from tests.browser.test_pages import (
    LANGUAGES,
    NARROW_PHONES,
    PAGE_IDS,
    PAGES,
    Page,
    foreign_request_problems,
    open_page,
    overflow_problems,
    scrolled_box_problems,
    spilled_text_problems,
)

#: What a script reads to lay a page out by the window's width.
WIDTH_READS = re.compile(
    r"innerWidth|outerWidth|screen\.width|matchMedia|ResizeObserver|\bresize\b|clientWidth|offsetWidth"
)


def test_no_script_lays_a_page_out_by_the_window_s_width() -> None:
    """Narrowing a loaded page (below) stands for loading it on the narrower phone only while
    its layout is the style sheets' alone (the pages' scripts are all in static/: the
    Content-Security-Policy allows no inline script)."""
    assert scripts_reading(WIDTH_READS) == []


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_page_speaks_every_language_and_fits_the_phone(
    shared_phones: PhoneFactory, site: Site, page: Page
) -> None:
    """In each of the five languages (the switcher's cookie) the page says so in <html lang>,
    and its longer words still fit, on the phone of the other tests and on a 360 px one:
    nothing scrolls sideways, no text runs out of its box, and a table meant to fit does
    without scrolling in its box. The page is loaded once per language and then narrowed:
    the pages' layout is their style sheets' alone (no script lays out by width)."""
    phone = shared_phones("languages", storage_state=site.state)
    problems = []
    for lang in LANGUAGES:
        phone.context.add_cookies([{"name": "lang", "value": lang, "url": site.base_url}])
        phone.page.set_viewport_size(PHONE["viewport"])
        problems += open_page(phone, site, page, f"{page.name} ({lang})")
        html_lang = phone.page.locator("html").get_attribute("lang")
        if html_lang != lang:
            problems.append(f"{page.name} ({lang}): <html lang={html_lang!r}>, expected {lang!r}")
        for width in NARROW_PHONES:
            phone.page.set_viewport_size({"width": width, "height": PHONE["viewport"]["height"]})
            where = f"{page.name} ({lang}, {width} px)"
            problems += overflow_problems(phone, where)
            problems += spilled_text_problems(phone, where)
            problems += scrolled_box_problems(phone, where, page.unscrolled)
    phone.page.set_viewport_size(PHONE["viewport"])
    problems += foreign_request_problems(phone, page.name)
    assert not problems, "\n".join(problems)
