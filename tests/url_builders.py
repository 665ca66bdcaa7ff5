"""Each URL rule's builder compiled once per test process, not once per app.

Werkzeug turns every URL rule into a small Python function (built as an AST and compiled)
when an app registers it. The suite makes an app for nearly every test, some 80 rules each:
35 ms a test, two to three minutes of a run. The function only depends on the rule's parts,
its defaults (as their converters write them) and whether unknown arguments are appended;
it reaches its rule through its first argument, to which each rule binds it. So a function
compiled once serves every later rule of the same parts. A werkzeug whose rules no longer
compile their builders this way is left as it is (the suite is only slower).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing.rules import Rule

#: The builders compiled so far, by what they depend on.
BUILDERS: dict[tuple[Any, ...], Callable[..., tuple[str, str]]] = {}


def builder_key(rule: Rule, append_unknown: bool) -> tuple[Any, ...]:
    """What the builder of ``rule`` depends on."""
    defaults = rule.defaults or {}
    converters = rule._converters  # noqa: SLF001 (werkzeug's own attribute)
    written = tuple(
        sorted(
            (name, converters[name].to_url(value) if name in converters else repr(value))
            for name, value in defaults.items()
        )
    )
    return (rule.rule, tuple(rule._trace), written, append_unknown)  # noqa: SLF001


def compile_builders_once() -> None:
    """Make werkzeug reuse a builder compiled for a rule of the same parts."""
    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None or getattr(compile_builder, "kept_builders", False):
        return

    def kept(rule: Rule, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        key = builder_key(rule, append_unknown)
        builder = BUILDERS.get(key)
        if builder is None:
            builder = BUILDERS[key] = compile_builder(rule, append_unknown)
        return builder

    kept.kept_builders = True  # type: ignore[attr-defined]
    kept.compiled_anew = compile_builder  # type: ignore[attr-defined]
    Rule._compile_builder = kept  # type: ignore[method-assign]  # noqa: SLF001
