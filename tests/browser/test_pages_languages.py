"""Every page of ``PAGES`` (test_pages.py) in each of the five languages, at 390 and 360 px:
it says its language, and its longer words still fit."""

from __future__ import annotations

import pytest

from tests.browser.support import PHONE, PhoneFactory, Site
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


@pytest.mark.parametrize("page", PAGES, ids=PAGE_IDS)
def test_page_speaks_every_language_and_fits_the_phone(
    shared_phones: PhoneFactory, site: Site, page: Page
) -> None:
    """In each of the five languages (the switcher's cookie) the page says so in <html lang>,
    and its longer words still fit, on the phone of the other tests and on a 360 px one:
    nothing scrolls sideways, no text runs out of its box, and a table meant to fit does
    without scrolling in its box."""
    phone = shared_phones("languages", storage_state=site.state)
    problems = []
    for lang in LANGUAGES:
        phone.context.add_cookies([{"name": "lang", "value": lang, "url": site.base_url}])
        for width in NARROW_PHONES:
            phone.page.set_viewport_size({"width": width, "height": PHONE["viewport"]["height"]})
            where = f"{page.name} ({lang}, {width} px)"
            problems += open_page(phone, site, page, where)
            html_lang = phone.page.locator("html").get_attribute("lang")
            if html_lang != lang:
                problems.append(f"{where}: <html lang={html_lang!r}>, expected {lang!r}")
            problems += overflow_problems(phone, where)
            problems += spilled_text_problems(phone, where)
            problems += scrolled_box_problems(phone, where, page.unscrolled)
    phone.page.set_viewport_size(PHONE["viewport"])
    problems += foreign_request_problems(phone, page.name)
    assert not problems, "\n".join(problems)
