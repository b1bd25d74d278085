"""The results card as a picture: a PNG of 1200x630 (the size link previews show), drawn with
Pillow. The text is set in DejaVu Sans (Debian's fonts-dejavu-core, which scripts/run and
scripts/test install: Latin, Greek and Cyrillic names), or, on a machine without it, Pillow's
own font.

It shows what the card page shows (``views.card_context``) and nothing else: the players'
names, the final score, each finished hand (its kind, who won it, the points) and the rating
change. No card of any hand is on it.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

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
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
# The three faces the card uses: (file, size in pixels).
FONTS = {
    "text": ("DejaVuSans.ttf", 24),
    "name": ("DejaVuSans-Bold.ttf", 38),
    "score": ("DejaVuSans-Bold.ttf", 96),
}
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def _font(face: str) -> Font:
    name, size = FONTS[face]
    try:
        return ImageFont.truetype(str(DEJAVU / name), size)
    except OSError:
        return ImageFont.load_default(size)


class Canvas:
    """The picture being drawn, with text set in the card's faces."""

    def __init__(self, width: int, height: int, colour: Colour) -> None:
        self.image = Image.new("RGB", (width, height), colour)
        self.draw = ImageDraw.Draw(self.image)

    def box(self, x: int, y: int, w: int, h: int, colour: Colour) -> None:
        self.draw.rectangle((x, y, x + w - 1, y + h - 1), fill=colour)

    def frame(self, x: int, y: int, w: int, h: int, colour: Colour, thick: int) -> None:
        self.draw.rectangle((x, y, x + w - 1, y + h - 1), outline=colour, width=thick)

    def measure(self, text: str, face: str) -> float:
        return self.draw.textlength(text, font=_font(face))

    def fit(self, text: str, face: str, width: float) -> str:
        """``text``, cut short with an ellipsis where it would be wider than ``width``."""
        if self.measure(text, face) <= width:
            return text
        while text and self.measure(text + "…", face) > width:
            text = text[:-1]
        return text.rstrip() + "…"

    def text(
        self, x: float, y: int, text: str, face: str, colour: Colour, right: bool = False
    ) -> None:
        """``text`` with its line's top at ``y``, starting at ``x`` (ending there: ``right``)."""
        anchor = "ra" if right else "la"
        self.draw.text((x, y), text, fill=colour, font=_font(face), anchor=anchor)

    def png(self) -> bytes:
        out = io.BytesIO()
        self.image.save(out, format="PNG", optimize=True)
        return out.getvalue()


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
    canvas.text(MARGIN, 36, canvas.fit(line, "text", inner), "text", PALE)
    title = (
        _("%(name)s won") % {"name": card["winner"]} if card["winner"] else _("The match is over")
    )
    canvas.text(MARGIN, 76, canvas.fit(title, "name", inner), "name", GOLD)
    # The final score: a box per player, the winner's framed in gold.
    half = (inner - 40) // 2
    for index, player in enumerate(card["players"]):
        x = MARGIN + index * (half + 40)
        canvas.box(x, 146, half, 180, PANEL)
        if player["winner"]:
            canvas.frame(x, 146, half, 180, GOLD, 4)
        name = canvas.fit(player["name"], "name", half - 40)
        canvas.text(x + 20, 160, name, "name", WHITE)
        canvas.text(x + 20, 208, str(player["score"]), "score", GOLD)
    # Score by hand (left) and the ratings (right).
    y = 352
    canvas.text(MARGIN, y, _("Score by hand"), "text", PALE)
    hands = card["hands"]
    shown = hands if len(hands) <= MOST_HANDS else hands[: MOST_HANDS - 1]
    for hand in shown:
        y += 34
        canvas.text(MARGIN, y, str(hand["hand_number"]), "text", WHITE)
        canvas.text(
            MARGIN + 50,
            y,
            canvas.fit(str(hand["kind"]).capitalize(), "text", 150),
            "text",
            WHITE,
        )
        canvas.text(MARGIN + 210, y, canvas.fit(str(hand["winner"]), "text", 300), "text", WHITE)
        canvas.text(MARGIN + 600, y, str(hand["points"]), "text", WHITE, right=True)
    if len(shown) < len(hands):
        y += 34
        more = _("and %(n)s more hands") % {"n": len(hands) - len(shown)}
        canvas.text(MARGIN + 50, y, more, "text", PALE)
    if not hands:
        canvas.text(MARGIN, y + 34, _("No hand was finished."), "text", WHITE)
    right = MARGIN + 680
    y = 352
    if card["rating_lines"]:
        canvas.text(right, y, _("Ratings"), "text", PALE)
        for rating in card["rating_lines"]:
            y += 34
            canvas.text(right, y, canvas.fit(str(rating), "text", inner - 680), "text", WHITE)
    return canvas.png()
