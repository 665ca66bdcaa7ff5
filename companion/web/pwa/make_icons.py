"""Render the app's PNG icons and favicon from the hand-written static/icons/icon.svg.

A developer's tool, never imported by the app: run ``python -m companion.web.pwa.make_icons``
after changing the SVG. It needs Debian's ``chromium`` (headless, to render the SVG) and
``pngquant`` and ``optipng`` (to keep each PNG at a few kilobytes).
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent.parent / "static" / "icons"
SOURCE = ICONS / "icon.svg"

BACKGROUND = "#b3261e"
"""The icon's own background colour: a maskable icon fills its whole square with it."""

MASKABLE_SCALE = 0.86
"""How much smaller the artwork is drawn on a maskable icon, to keep it in the safe zone
(the centred circle of 40 % of the size in radius that every launcher mask leaves visible)."""

PNG_ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "icon-maskable-512.png": (512, True),
}
FAVICON_SIZES = (16, 32, 48)

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--hide-scrollbars",
    "--force-device-scale-factor=1",
    "--default-background-color=00000000",
]


def page(size: int, maskable: bool) -> str:
    """An HTML page that shows the SVG at ``size`` pixels, full-bleed when ``maskable``."""
    scale = MASKABLE_SCALE if maskable else 1
    background = BACKGROUND if maskable else "transparent"
    return (
        "<!doctype html><style>html,body{margin:0;overflow:hidden;"
        f"background:{background}}}img{{display:block;width:{size}px;height:{size}px;"
        f"transform:scale({scale})}}</style><img src='{SOURCE.as_uri()}'>"
    )


def render(size: int, maskable: bool, target: Path, work: Path) -> None:
    """Screenshot the SVG at ``size`` pixels into ``target`` and shrink the file."""
    html = work / f"icon-{size}-{int(maskable)}.html"
    html.write_text(page(size, maskable))
    shot = work / "shot.png"
    subprocess.run(
        [
            "chromium",
            *CHROMIUM_FLAGS,
            f"--window-size={size},{size}",
            f"--screenshot={shot}",
            html.as_uri(),
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        ["pngquant", "--force", "--strip", "--quality=80-100", "--output", str(target), str(shot)],
        check=True,
    )
    subprocess.run(["optipng", "-quiet", "-o7", "-strip", "all", str(target)], check=True)


def ico(pngs: list[tuple[int, bytes]]) -> bytes:
    """A Windows icon file holding each (size, PNG data) image as it is."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = len(header) + 16 * len(pngs)
    entries, images = b"", b""
    for size, data in pngs:
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(data), offset)
        images += data
        offset += len(data)
    return header + entries + images


def main() -> None:
    """Write every PNG icon and favicon.ico beside the SVG."""
    for tool in ("chromium", "pngquant", "optipng"):
        if shutil.which(tool) is None:
            raise SystemExit(f"{tool} is needed to render the icons")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for name, (size, maskable) in PNG_ICONS.items():
            render(size, maskable, ICONS / name, work)
        favicons = []
        for size in FAVICON_SIZES:
            target = work / f"favicon-{size}.png"
            render(size, False, target, work)
            favicons.append((size, target.read_bytes()))
        (ICONS / "favicon.ico").write_bytes(ico(favicons))
    for path in sorted(ICONS.iterdir()):
        print(f"{path.name}: {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
