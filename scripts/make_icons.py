"""Render the app icons (static/icons/*.png) from their SVG sources with Debian's Chromium.

    .venv/bin/python scripts/make_icons.py

The PNGs are committed assets: run this after changing static/icons/icon.svg or
icon-maskable.svg, look at the results, and commit both. Chromium draws the SVG at each size
(no scaling of a bitmap), so the edges stay sharp; the "any" icon keeps its transparent corners.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"
# (source, size, output): the manifest's icons, and Apple's touch icon (iOS rounds the corners
# of a full-bleed square itself, so it is the maskable art).
RENDERS = [
    ("icon.svg", 192, "icon-192.png"),
    ("icon.svg", 512, "icon-512.png"),
    ("icon-maskable.svg", 192, "icon-maskable-192.png"),
    ("icon-maskable.svg", 512, "icon-maskable-512.png"),
    ("icon-maskable.svg", 180, "apple-touch-icon.png"),
]


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(device_scale_factor=1)
        for source, size, output in RENDERS:
            svg = (ICONS / source).read_text()
            page.set_viewport_size({"width": size, "height": size})
            page.set_content(
                "<style>body{margin:0;background:transparent}"
                "svg{display:block;width:100vw;height:100vh}</style>" + svg
            )
            page.screenshot(path=str(ICONS / output), omit_background=True)
            print(f"{output}: {size}x{size} from {source}")
        browser.close()


if __name__ == "__main__":
    main()
