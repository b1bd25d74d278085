"""The table is a card table at every size: everything a turn needs is in the first screen.

At 360x740, 390x844, 768x1024 and 1280x800, and on a phone turned sideways (740x360, 844x390),
in English and German, in the upcard offer that opens a hand, the draw, discard and hand-over
phases, the opponent's cards, both piles, every card of the hand and the action buttons lie
inside the viewport without scrolling (from their bounding boxes); sideways, the cards are
larger than upright; on a phone the first-match tips' "Got it" is in the first screen too.
Screenshots of each are written to test-artifacts/ for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.table_helpers import ARTIFACTS, SIZES, settle, sign_in, table_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What must be on screen in each phase: (selector, how many at least).
SURFACE = {
    "upcard": [
        ("#opponent .backs .card", 10),
        ("#pile .stock .card", 1),
        ("#pile .discard .card", 1),
        ("#hand .hand-cards > li", 10),
        ("#actions .buttons button", 2),
    ],
    "draw": [
        ("#opponent .backs .card", 10),
        ("#pile .stock .card", 1),
        ("#pile .discard .card", 1),
        ("#hand .hand-cards > li", 10),
        ("#actions .buttons button", 2),
        ("#actions .more .button", 1),
    ],
    "discard": [
        ("#opponent .backs .card", 10),
        ("#pile .stock .card", 1),
        ("#pile .discard .card", 1),
        ("#hand .hand-cards > li", 11),
        ("#actions .buttons button", 2),
    ],
    "hand_over": [
        ("#pile .discard .card", 1),
        ("#result .side .card", 20),
        ("#result .headline", 1),
        ("#actions button[value=next_hand]", 1),
    ],
}


@pytest.fixture
def context(
    browser: Browser, base: str, request: pytest.FixtureRequest
) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=SIZES["360x740"], locale=request.param)
    yield context
    context.close()


def outside(page: Page, selector: str) -> list[str]:
    """The elements of ``selector`` not wholly inside the viewport, described."""
    size = page.viewport_size
    assert size is not None
    bad = []
    for i, box in enumerate(
        page.locator(selector).evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; })"
        )
    ):
        left, top, right, bottom = box
        if (
            left < -0.5
            or top < -0.5
            or right > size["width"] + 0.5
            or bottom > size["height"] + 0.5
        ):
            bad.append(f"{selector}[{i}] at {[round(v) for v in box]}")
    return bad


# Upright phone -> the same phone turned sideways.
TURNED = {"360x740": "740x360", "390x844": "844x390"}


def card_width(page: Page) -> float:
    return float(page.locator("#hand .hand-cards .card").first.evaluate("e => e.offsetWidth"))


@pytest.mark.parametrize("context", ["en-GB", "de-DE"], indirect=True)
@pytest.mark.parametrize("phase", ["upcard", "draw", "discard", "hand_over"])
def test_it_fits_the_playing_surface_in_the_first_screen(
    context: BrowserContext, base: str, alice: User, phase: str
) -> None:
    sign_in(context, base, alice)
    match = table_in(alice, phase)
    page = context.new_page()
    page.goto(f"{base}/games/{match.public_id}/")
    lang = page.evaluate("document.documentElement.lang")
    ARTIFACTS.mkdir(exist_ok=True)
    problems = []
    widths = {}
    for name, size in SIZES.items():
        page.set_viewport_size(size)
        page.evaluate("window.scrollTo(0, 0)")
        # Measured where the cards come to rest (a fresh deal flies them in from the stock).
        settle(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], name
        for selector, least in SURFACE[phase]:
            count = page.locator(selector).count()
            assert count >= least, f"{name}: {count} of {selector}, expected {least}+"
            problems += [f"{name}: {p}" for p in outside(page, selector)]
        if name == "360x740":
            # The first match's tips: their "Got it" is in the first screen too.
            assert page.locator("#tips [data-dismiss-tips]").count() == 1
            problems += [f"{name}: {p}" for p in outside(page, "#tips [data-dismiss-tips]")]
        if phase != "hand_over":
            widths[name] = card_width(page)
        page.screenshot(path=str(ARTIFACTS / f"table-{lang}-{phase}-{name}.png"))
    assert not problems, "\n".join(problems)
    for upright, sideways in TURNED.items():
        if widths:
            assert widths[sideways] > widths[upright], (upright, widths)
