"""Render the app icons (static/icons/*.png) from their SVG sources with Debian's Chromium.

    python tests/pwa/render_icons.py

icon.svg (a card table: felt in a wooden rim, three fanned cards) gives the "any" icons,
transparent outside the rounded rim; icon-maskable.svg (full-bleed felt, the cards inside
the central 80% circle that every mask keeps) gives the maskable icon and the iPhone's
apple-touch-icon (iOS rounds the corners itself and shows transparency as black).
If pngquant and optipng are installed (`apt-get install pngquant optipng`), the PNGs are
then quantized and packed (about 4x smaller, no visible change). Commit the PNGs; the tests
check their sizes.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[2] / "static" / "icons"
OUT = {  # png name: (svg source, size, transparent corners)
    "icon-192.png": ("icon.svg", 192, True),
    "icon-512.png": ("icon.svg", 512, True),
    "icon-maskable-512.png": ("icon-maskable.svg", 512, False),
    "apple-touch-icon.png": ("icon-maskable.svg", 180, False),
}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def shrink(png: Path) -> None:
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--quality", "80-98", "--speed", "1", "--strip", "--force",
                        "--output", str(png), str(png)], check=True)
    if shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o5", str(png)], check=True)


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for name, (source, size, clear) in OUT.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (ICONS / source).read_text()
            page.set_content(
                "<!doctype html><style>html,body{margin:0;background:transparent}"
                f"svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}")
            page.screenshot(path=str(ICONS / name), omit_background=clear)
            page.close()
            shrink(ICONS / name)
            print(name, size, (ICONS / name).stat().st_size, "bytes")
        browser.close()


if __name__ == "__main__":
    main()
