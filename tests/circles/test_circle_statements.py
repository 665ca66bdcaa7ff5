"""A phone's circles cost no statement more (issue 28): each history page asks for them in
the statement it reads first (its ETag's), so a phone in two circles is served with as
many statements as a club server's pages (tests/history/test_statement_count.py)."""

from __future__ import annotations

from flask import Flask

from tests.circles.conftest import Tables
from tests.history.test_statement_count import counted

#: The club server's counts, which the pages of a server of circles keep.
BUDGETS = {
    "/history": 3,  # phone's circles with the counter, the counts with the names, the page
    "/history?player=Anna&period=30d": 3,  # the counts per circle ride on the first read
    "/players/Anna": 5,  # circles, player and counter; totals, scores, opponents, months
    "/players/Anna/vs/Ben": 3,  # circles, players and counter; the sums; the latest games
}


def test_a_phone_in_two_circles_costs_no_statement_more(circles_app: Flask, tables: Tables) -> None:
    phone = tables.phone()
    for _ in range(3):
        tables.played(phone, ["Anna", "Ben", "Cleo"])
    tables.join(phone, tables.played(tables.phone(), ["Anna", "Dan", "Eve"]))
    for url, budget in BUDGETS.items():
        with counted(circles_app) as statements:
            answer = phone.get(url)
        assert answer.status_code == 200, url
        assert len(statements) == budget, (url, statements)
        tag = answer.headers["ETag"]
        with counted(circles_app) as statements:
            assert phone.get(url, headers={"If-None-Match": tag}).status_code == 304
        assert len(statements) == 1, (url, statements)
