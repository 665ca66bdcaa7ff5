"""The URL builders compiled once per test process (tests/url_builders.py) are the very
functions werkzeug compiles for each rule: same code, same constants, same arguments."""

from __future__ import annotations

from types import CodeType
from typing import Any

from flask import Flask, url_for
from werkzeug.routing.rules import Rule


def shape(code: CodeType) -> tuple[Any, ...]:
    """What a compiled builder does: its bytecode, constants, names and arguments."""
    return (code.co_code, code.co_consts, code.co_names, code.co_varnames, code.co_argcount)


def test_every_rule_of_the_app_gets_the_builder_werkzeug_would_compile(app: Flask) -> None:
    kept = Rule._compile_builder  # noqa: SLF001
    assert getattr(kept, "kept_builders", False), "the suite compiles each builder anew"
    anew = kept.compiled_anew  # type: ignore[attr-defined]
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 50
    for rule in rules:
        for append_unknown in (False, True):
            assert shape(kept(rule, append_unknown).__code__) == shape(
                anew(rule, append_unknown).__code__
            ), rule.rule


def test_rules_of_the_same_path_with_other_defaults_build_their_own_urls() -> None:
    app = Flask(__name__)
    app.add_url_rule("/g/<code>/rounds/<int:number>", "correct", lambda **_: "")
    app.add_url_rule("/g/<code>/rounds/", "first", lambda **_: "", defaults={"number": 1})
    app.add_url_rule("/g/<code>/rounds/<int:number>", "second", lambda **_: "")
    with app.test_request_context():
        assert url_for("correct", code="abc", number=3) == "/g/abc/rounds/3"
        assert url_for("first", code="abc") == "/g/abc/rounds/"
        assert url_for("second", code="xyz", number=12, mode="live") == "/g/xyz/rounds/12?mode=live"
