"""The ``link_rulings`` filter: citations such as "(R7, R8)" in a reason become links to the
rules page, and everything else in the text stays text."""

from __future__ import annotations

import pytest
from flask import Flask, render_template_string
from markupsafe import Markup

from companion.web.rulebook.citations import link_rulings

#: Its tests' bodies run no statement on the app's database (tests/conftest.py checks).
pytestmark = pytest.mark.no_database_queries


def linked(app: Flask, text: object) -> str:
    """``text`` through the filter, inside a request as a page renders it."""
    with app.test_request_context():
        return str(link_rulings(text))


def test_each_citation_becomes_a_link_to_its_anchor(app: Flask) -> None:
    reason = "Blue 9 is the highest trump (R7, R8)."

    assert linked(app, reason) == (
        'Blue 9 is the highest trump (<a href="/rules#r7">R7</a>, <a href="/rules#r8">R8</a>).'
    )


def test_checks_and_both_ends_of_a_range_are_linked(app: Flask) -> None:
    assert linked(app, "(C6; R19-R21)") == (
        '(<a href="/rules#c6">C6</a>; <a href="/rules#r19">R19</a>-<a href="/rules#r21">R21</a>)'
    )


def test_markup_in_the_text_is_escaped_and_never_runs(app: Flask) -> None:
    result = linked(app, '<script>alert("R1")</script> takes the trick (R8).')

    assert "<script>" not in result
    assert result == (
        '&lt;script&gt;alert(&#34;<a href="/rules#r1">R1</a>&#34;)&lt;/script&gt; '
        'takes the trick (<a href="/rules#r8">R8</a>).'
    )


def test_numbers_that_name_no_ruling_and_longer_words_stay_plain(app: Flask) -> None:
    text = "R24, C7, R0, R07, R2D2, CR7, r7 and R123"

    assert linked(app, text) == text


def test_nothing_renders_as_nothing(app: Flask) -> None:
    assert linked(app, None) == ""


def test_the_filter_is_registered_for_every_template_and_returns_markup(app: Flask) -> None:
    with app.test_request_context():
        page = render_template_string("<p>{{ reason|link_rulings }}</p>", reason="<b>Ann</b> (R9)")
        assert isinstance(link_rulings("R9"), Markup)

    assert page == '<p>&lt;b&gt;Ann&lt;/b&gt; (<a href="/rules#r9">R9</a>)</p>'
