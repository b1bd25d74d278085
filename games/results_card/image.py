"""The results card as a picture: a PNG of 1200x630 (the size link previews show), drawn in pure
Python: the site has no imaging library, and a card is a few flat boxes and lines of text. The
text is set from glyphs rendered once from DejaVu Sans (``glyphs.bin``, made by
scripts/make_card_glyphs.py); a character they lack is drawn as "?".

It shows what the card page shows (``views.card_context``) and nothing else: the players'
names, the final score, each finished hand (its kind, who won it, the points) and the rating
change. No card of any hand is on it.
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext as _

WIDTH, HEIGHT = 1200, 630
MARGIN = 60
FELT = (31, 94, 67)
PANEL = (23, 74, 53)
WHITE = (255, 255, 255)
PALE = (207, 227, 216)
GOLD = (255, 211, 77)
# Hands listed before "and N more"; the rest is on the card's page.
MOST_HANDS = 6
Colour = tuple[int, int, int]


@cache
def _glyphs() -> dict[str, Any]:
    packed = (Path(__file__).resolve().parent / "glyphs.bin").read_bytes()
    fonts = json.loads(zlib.decompress(packed))
    for font in fonts.values():
        for glyph in font["glyphs"].values():
            glyph[5] = base64.b64decode(glyph[5])
    return fonts


class Canvas:
    """An RGB picture in a bytearray, with boxes and text drawn on flat colours."""

    def __init__(self, width: int, height: int, colour: Colour) -> None:
        self.width, self.height = width, height
        self.pixels = bytearray(bytes(colour) * (width * height))

    def box(self, x: int, y: int, w: int, h: int, colour: Colour) -> None:
        row = bytes(colour) * w
        for line in range(max(0, y), min(self.height, y + h)):
            at = (line * self.width + x) * 3
            self.pixels[at : at + 3 * w] = row

    def frame(self, x: int, y: int, w: int, h: int, colour: Colour, thick: int) -> None:
        self.box(x, y, w, thick, colour)
        self.box(x, y + h - thick, w, thick, colour)
        self.box(x, y, thick, h, colour)
        self.box(x + w - thick, y, thick, h, colour)

    def measure(self, text: str, font: str) -> float:
        glyphs = _glyphs()[font]["glyphs"]
        return sum(glyphs.get(ch, glyphs["?"])[0] for ch in text)

    def fit(self, text: str, font: str, width: float) -> str:
        """``text``, cut short with an ellipsis where it would be wider than ``width``."""
        if self.measure(text, font) <= width:
            return text
        while text and self.measure(text + "…", font) > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def text(
        self, x: float, y: int, text: str, font: str, colour: Colour, under: Colour, right=False
    ) -> None:
        """``text`` with its line's top at ``y``, starting at ``x`` (ending there: ``right``),
        on a background of ``under``."""
        glyphs = _glyphs()[font]["glyphs"]
        if right:
            x -= self.measure(text, font)
        # Each coverage 0-255 as the pixel it makes over this background.
        blend = [
            bytes(round(u + (c - u) * a / 255) for u, c in zip(under, colour, strict=True))
            for a in range(256)
        ]
        pen = x
        for ch in text:
            advance, left, top, w, h, alpha = glyphs.get(ch, glyphs["?"])
            x0, y0 = round(pen + left), y + top
            for row in range(h):
                line = y0 + row
                if not 0 <= line < self.height:
                    continue
                base = line * self.width
                for col in range(w):
                    a = alpha[row * w + col]
                    px = x0 + col
                    if a and 0 <= px < self.width:
                        at = (base + px) * 3
                        self.pixels[at : at + 3] = blend[a]
            pen += advance

    def png(self) -> bytes:
        raw = b"".join(
            b"\x00" + bytes(self.pixels[y * self.width * 3 : (y + 1) * self.width * 3])
            for y in range(self.height)
        )

        def chunk(kind: bytes, data: bytes) -> bytes:
            body = kind + data
            return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (
            b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 6))
            + chunk(b"IEND", b"")
        )


def card_png(card: dict[str, Any]) -> bytes:
    """The PNG of a results card (``views.card_context``), in the active language."""
    canvas = Canvas(WIDTH, HEIGHT, FELT)
    inner = WIDTH - 2 * MARGIN
    when = date_format(card["match"].updated_at, "DATE_FORMAT")
    line = _("Gin Rummy, %(rules)s to %(target)s") % {
        "rules": card["rules"],
        "target": card["target"],
    }
    ending = {
        "resigned": _("resigned"),
        "abandoned": _("abandoned"),
        "timed_out": _("won on time"),
    }.get(card["status"])
    line = " · ".join(part for part in (line, ending, when) if part)
    canvas.text(MARGIN, 36, canvas.fit(line, "text", inner), "text", PALE, FELT)
    title = (
        _("%(name)s won") % {"name": card["winner"]} if card["winner"] else _("The match is over")
    )
    canvas.text(MARGIN, 76, canvas.fit(title, "name", inner), "name", GOLD, FELT)
    # The final score: a box per player, the winner's framed in gold.
    half = (inner - 40) // 2
    for index, player in enumerate(card["players"]):
        x = MARGIN + index * (half + 40)
        canvas.box(x, 146, half, 180, PANEL)
        if player["winner"]:
            canvas.frame(x, 146, half, 180, GOLD, 4)
        name = canvas.fit(player["name"], "name", half - 40)
        canvas.text(x + 20, 160, name, "name", WHITE, PANEL)
        canvas.text(x + 20, 208, str(player["score"]), "score", GOLD, PANEL)
    # Score by hand (left) and the ratings (right).
    y = 352
    canvas.text(MARGIN, y, _("Score by hand"), "text", PALE, FELT)
    hands = card["hands"]
    shown = hands if len(hands) <= MOST_HANDS else hands[: MOST_HANDS - 1]
    for hand in shown:
        y += 34
        canvas.text(MARGIN, y, str(hand["hand_number"]), "text", WHITE, FELT)
        canvas.text(
            MARGIN + 50,
            y,
            canvas.fit(str(hand["kind"]).capitalize(), "text", 150),
            "text",
            WHITE,
            FELT,
        )
        canvas.text(
            MARGIN + 210, y, canvas.fit(str(hand["winner"]), "text", 300), "text", WHITE, FELT
        )
        canvas.text(MARGIN + 600, y, str(hand["points"]), "text", WHITE, FELT, right=True)
    if len(shown) < len(hands):
        y += 34
        more = _("and %(n)s more hands") % {"n": len(hands) - len(shown)}
        canvas.text(MARGIN + 50, y, more, "text", PALE, FELT)
    if not hands:
        canvas.text(MARGIN, y + 34, _("No hand was finished."), "text", WHITE, FELT)
    right = MARGIN + 680
    y = 352
    if card["rating_lines"]:
        canvas.text(right, y, _("Ratings"), "text", PALE, FELT)
        for rating in card["rating_lines"]:
            y += 34
            canvas.text(right, y, canvas.fit(str(rating), "text", inner - 680), "text", WHITE, FELT)
    return canvas.png()
