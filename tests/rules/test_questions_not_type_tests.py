"""Every rule lives in companion/rules: outside it, code asks a variant its questions
(``hides_marks``, ``has_passes``, ``settings``...) and never tests its class, so a new variant
is one entry in the rules, not an ``if`` in every page."""

from __future__ import annotations

import ast
from pathlib import Path

import companion
import companion.rules

PACKAGE = Path(companion.__file__).parent
RULES = Path(companion.rules.__file__).parent
VARIANT_CLASSES = {"ClassicVariant", "HatTrickVariant", "Family"}


def class_names(node: ast.expr) -> set[str]:
    """The names a class argument of ``isinstance`` mentions (a tuple or ``A | B`` too)."""
    return {
        child.id if isinstance(child, ast.Name) else child.attr
        for child in ast.walk(node)
        if isinstance(child, ast.Name | ast.Attribute)
    }


def variant_type_tests(source: str) -> list[int]:
    """The lines of each isinstance/issubclass test on a variant class in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2
            and class_names(node.args[1]) & VARIANT_CLASSES
        ):
            found.append(node.lineno)
    return found


def test_no_module_outside_the_rules_tests_a_variants_class():
    outside = [path for path in PACKAGE.rglob("*.py") if RULES not in path.parents]
    assert len(outside) > 40  # the whole app is searched, not an empty folder
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}"
        for path in outside
        for line in variant_type_tests(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_search_finds_a_type_test_where_there_is_one():
    sample = (
        "def f(v, e):\n"
        "    isinstance(e, ValueError)\n"
        "    return isinstance(v, rules.HatTrickVariant | ClassicVariant)\n"
    )
    assert variant_type_tests(sample) == [3]
