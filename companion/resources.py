"""Where the app's templates, static files and migrations are.

In a checkout they sit at the top, beside the package; a wheel carries them inside the
package (setup.py puts them there). The package's own copy wins, so an installed app never
reads a folder from whatever directory it was started in.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


class MissingFolder(RuntimeError):
    """Neither the package nor the checkout holds a folder the app cannot run without."""


def folder(name: str, package: Path = PACKAGE) -> Path:
    """The folder ``name`` inside ``package`` if it is there, else the checkout's beside it."""
    for candidate in (package / name, package.parent / name):
        if candidate.is_dir():
            return candidate
    raise MissingFolder(
        f"'{name}' is neither in {package} nor in {package.parent}: the package was built "
        "without it (build the wheel with pip from the checkout, which bundles it)"
    )
