"""The parsed-HTML reader the tests and the load kit share (scripts/page_reader.py)."""

from __future__ import annotations

import pytest

from scripts.page_reader import addresses, csrf_token, loads, page_language, read_page

PAGE = """<!doctype html>
<html lang="de"><head><title>Sticheln</title><link rel="icon" href="/f.svg"></head>
<body><main>
  <form method="post"><input name="csrf_token" type="hidden" value="tok-1">
    <input name="version" type="hidden" value="3"><br>
    <button type="submit" name="seat" value="2">Weiter</button></form>
  <table class="scoreboard wide" data-seat-count="2">
    <tr data-seat="0"><td>Anna</td><td>12</td></tr>
    <tr data-seat="1" hidden><td>Ben &amp; Co</td><td>&minus;4</td></tr>
  </table>
  <form method="post"><input name="csrf_token" type="hidden" value="tok-2"></form>
</main></body></html>"""


def test_the_csrf_token_is_the_first_forms() -> None:
    assert csrf_token(PAGE) == "tok-1"


def test_a_page_without_a_csrf_token_says_so() -> None:
    with pytest.raises(LookupError, match="csrf_token"):
        csrf_token("<form><input name='version' value='1'></form>")


def test_elements_are_found_by_data_hook_and_read_as_text() -> None:
    rows = read_page(PAGE).find_all("tr", data_seat=True)
    assert [row.get("data-seat") for row in rows] == ["0", "1"]
    assert [row.text for row in rows] == ["Anna12", "Ben & Co\u22124"]  # as textContent
    assert [td.text for td in rows[1].find_all("td")] == ["Ben & Co", "\u22124"]


def test_a_class_is_one_word_of_the_class_attribute_and_bare_attributes_are_empty() -> None:
    page = read_page(PAGE)
    assert page.find(class_="wide").get("data-seat-count") == "2"
    assert page.find("tr", hidden=True).get("hidden") == ""
    assert page.find("html").get("lang") == "de"


def test_void_elements_hold_nothing_and_do_not_swallow_what_follows() -> None:
    form = read_page(PAGE).find("form")
    assert [i.get("name") for i in form.find_all("input")] == ["csrf_token", "version"]
    assert form.find("button").text == "Weiter"
    assert read_page(PAGE).find("link").children == []


def test_looking_for_what_is_not_there_names_what_was_looked_for() -> None:
    with pytest.raises(LookupError, match="no element td data_seat='9'"):
        read_page(PAGE).find("td", data_seat="9")


def test_words_break_at_tags_but_not_at_joined_ones_and_skip_what_is_asked() -> None:
    main = read_page(
        "<main><h1>Sti<a href='/'>cheln</a></h1><p>12<svg><title>chart</title></svg>"
        "<b>Ann</b></p></main>"
    ).find("main")
    assert main.text == "Sticheln12chartAnn"
    assert main.words() == "Sti cheln 12 chart Ann"
    assert main.words(skip={"svg"}, joined={"a"}) == "Sticheln 12 Ann"


def test_text_keeps_a_no_break_space_where_words_make_it_a_space() -> None:
    cell = read_page("<dd>\n  50&nbsp;%\n</dd>").find("dd")
    assert cell.text == "50\xa0%"
    assert cell.words() == "50 %"


def test_own_text_leaves_out_what_child_elements_hold() -> None:
    seat = read_page(
        '<li class="seat"><span class="seat__total"><span class="hidden">Total: </span>'
        "+5 </span></li>"
    ).find("span", class_="seat__total")
    assert seat.own_text == "+5"
    assert seat.text == "Total: +5"
    assert seat.strings == ["Total: ", "+5 "]


def test_a_modifier_is_the_first_block_modifier_class() -> None:
    chip = read_page('<span class="chip chip--red chip--kept">8</span>').find("span")
    assert chip.modifier("chip") == "red"
    with pytest.raises(AssertionError):
        chip.modifier("card")


def test_spoken_words_leave_out_what_is_hidden_from_screen_readers() -> None:
    chip = read_page(
        '<td><span aria-hidden="true">\u2665</span>8<span class="sr">red 8</span>'
        '<b aria-hidden="false">!</b></td>'
    ).find("td")
    assert chip.spoken() == "8 red 8 !"
    assert chip.words() == "\u2665 8 red 8 !"


def test_the_language_addresses_and_loads_of_a_page() -> None:
    page = (
        '<html lang="hu"><head><link rel="stylesheet" href="/s.css"><link rel="icon" '
        'href="/i.svg"><script src="/a.js"></script><script>var x;</script></head>'
        '<body><a href="/rules">R</a><img src="/p.png"></body></html>'
    )
    assert page_language(page) == "hu"
    assert page_language("<html><p>x</p></html>") is None
    assert addresses(page) == ["/s.css", "/i.svg", "/a.js", "/rules", "/p.png"]
    assert loads(page) == ["/s.css", "/a.js"]


def test_after_is_the_next_element_of_the_same_parent() -> None:
    page = read_page('<li><input name="a"><ul id="a-errors"><li>x</li></ul></li><p>y</p>')
    field = page.find("input")
    assert page.after(field).get("id") == "a-errors"
    with pytest.raises(LookupError, match="nothing follows"):
        page.after(page.find("p"))
