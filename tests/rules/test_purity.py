"""The rules engine is pure: every module of companion/rules imports only the standard library
and companion.rules itself, so no web or database library can creep in."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import companion.rules

RULES_DIR = Path(companion.rules.__file__).parent
MODULES = sorted(
    (f"companion.rules.{info.name}", RULES_DIR / f"{info.name}.py")
    for info in pkgutil.iter_modules([str(RULES_DIR)])
) + [("companion.rules", RULES_DIR / "__init__.py")]
EXPECTED = {
    "cards",
    "deck",
    "variants",
    "table",
    "tricks",
    "hat_trick",
    "checks",
    "scoring",
    "errors",
    "text",
}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, anywhere in it (functions and TYPE_CHECKING blocks too),
    with its line; relative imports are resolved against companion.rules."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.append((node.lineno, f"companion.rules.{node.module or ''}".rstrip(".")))
            else:
                found.append((node.lineno, node.module or ""))
    return found


def allowed(module: str) -> bool:
    top = module.split(".")[0]
    return (
        top in sys.stdlib_module_names
        or module == "companion.rules"
        or module.startswith("companion.rules.")
    )


def test_every_rules_module_is_checked():
    assert {name.rsplit(".", 1)[-1] for name, _ in MODULES} >= EXPECTED


@pytest.mark.parametrize(("module", "path"), MODULES, ids=[name for name, _ in MODULES])
def test_a_rules_module_imports_only_the_standard_library_and_the_rules(module, path):
    imports = imported_modules(path)
    assert imports, f"{module} imports nothing at all?"
    outside = [f"line {line}: {name}" for line, name in imports if not allowed(name)]
    assert not outside, (
        f"{module} imports outside the standard library and companion.rules: {outside}"
    )


def test_the_rules_load_without_any_installed_package():
    # A fresh interpreter without site-packages (-S) and with a bare ``companion`` package (so
    # the web app's __init__ is not run) imports every rules module; then nothing outside the
    # standard library and companion is loaded.
    code = f"""
import importlib, pkgutil, sys, types
package = types.ModuleType("companion")
package.__path__ = [{str(RULES_DIR.parent)!r}]
sys.modules["companion"] = package
import companion.rules
for info in pkgutil.iter_modules(companion.rules.__path__):
    importlib.import_module("companion.rules." + info.name)
loaded = {{name.split(".")[0] for name in sys.modules}}
print(sorted(loaded - set(sys.stdlib_module_names) - {{"companion", "__main__"}}))
"""
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]", result.stdout
