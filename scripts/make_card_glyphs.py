"""Render the glyphs the results card's image is drawn with (games/results_card/glyphs.bin)
from DejaVu Sans with Debian's Chromium.

    .venv/bin/python scripts/make_card_glyphs.py

The server draws the card's PNG in pure Python (games/results_card/image.py: the site has no
imaging library), from these glyphs: each character's coverage (0-255) at each size the card
uses, as Chromium's canvas draws it, antialiased. Like the icons (scripts/make_icons.py) the
file is a committed asset: run this after changing the sizes or the characters, and commit
it. DejaVu's licence (free, attribution kept) is beside it as glyphs.LICENSE.
"""

from __future__ import annotations

import base64
import json
import shutil
import zlib
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent.parent / "games" / "results_card"
CHROMIUM = "/usr/bin/chromium"
FONTS = Path("/usr/share/fonts/truetype/dejavu")
LICENCE = Path("/usr/share/doc/fonts-dejavu-core/copyright")
# Latin (ASCII, Latin-1, Latin Extended-A: the names of most players, English and German)
# and the few signs the card writes; a character outside them is drawn as "?".
TEXT = (
    "".join(chr(c) for c in range(0x20, 0x7F))
    + "".join(chr(c) for c in range(0xA0, 0x180))
    + "·–—★→‘’“”…€−"
)
DIGITS = "0123456789–-+?"
# name: (font file, pixel size, characters)
SIZES = {
    "text": ("DejaVuSans.ttf", 26, TEXT),
    "name": ("DejaVuSans-Bold.ttf", 40, TEXT),
    "score": ("DejaVuSans-Bold.ttf", 96, DIGITS),
}
RENDER = """async ([fontData, size, chars]) => {
    const bytes = Uint8Array.from(atob(fontData), (c) => c.charCodeAt(0));
    const face = new FontFace("CardFont" + size, bytes);
    await face.load();
    document.fonts.add(face);
    const canvas = document.createElement("canvas");
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    const font = `${size}px CardFont${size}`;
    ctx.font = font;
    const metrics = ctx.measureText("ÁgjÅ");
    const ascent = Math.ceil(metrics.fontBoundingBoxAscent);
    const descent = Math.ceil(metrics.fontBoundingBoxDescent);
    const glyphs = {};
    for (const ch of chars) {
        const advance = ctx.measureText(ch).width;
        const w = Math.ceil(advance) + size, h = ascent + descent;
        canvas.width = w; canvas.height = h;
        ctx.font = font;
        ctx.fillStyle = "#000";
        ctx.textBaseline = "alphabetic";
        ctx.fillText(ch, size / 2, ascent);
        const data = ctx.getImageData(0, 0, w, h).data;
        let x0 = w, y0 = h, x1 = -1, y1 = -1;
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
            if (data[(y * w + x) * 4 + 3]) {
                x0 = Math.min(x0, x); x1 = Math.max(x1, x);
                y0 = Math.min(y0, y); y1 = Math.max(y1, y);
            }
        }
        const alpha = [];
        for (let y = y0; y <= y1; y++) {
            for (let x = x0; x <= x1; x++) alpha.push(data[(y * w + x) * 4 + 3]);
        }
        // advance, left offset (from the pen), top (from the line's top), width, height, coverage
        glyphs[ch] = [Math.round(advance * 100) / 100, x1 < 0 ? 0 : x0 - size / 2, x1 < 0 ? 0 : y0,
            x1 < 0 ? 0 : x1 - x0 + 1, x1 < 0 ? 0 : y1 - y0 + 1, alpha];
    }
    return { ascent, descent, glyphs };
}"""


def main() -> None:
    found = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page()
        page.set_content("<!doctype html><title>glyphs</title>")
        for name, (font, size, chars) in SIZES.items():
            data = base64.b64encode((FONTS / font).read_bytes()).decode()
            drawn = page.evaluate(RENDER, [data, size, chars])
            for glyph in drawn["glyphs"].values():
                glyph[5] = base64.b64encode(bytes(glyph[5])).decode()
            found[name] = {"size": size, **drawn}
        browser.close()
    packed = zlib.compress(json.dumps(found, sort_keys=True).encode(), 9)
    (OUT / "glyphs.bin").write_bytes(packed)
    shutil.copyfile(LICENCE, OUT / "glyphs.LICENSE")
    print(f"games/results_card/glyphs.bin: {len(packed)} bytes")


if __name__ == "__main__":
    main()
