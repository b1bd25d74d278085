"""A double tap made while the hand still slides into place (issue 41, defect 6): the card the
first tap hit slides away and its neighbour comes under the finger, yet the two taps on one spot
discard the card the first one hit; nothing is lost without a word."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.table_helpers import SIZES, sign_in, table_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A point of a card in sight where the hand overlaps like a fan (its index corner).
CORNER = {"x": 7, "y": 12}


def test_two_taps_on_one_spot_discard_the_card_the_first_hit(
    browser: Browser, base: str, alice: User, quick_bea: None
):
    context = browser.new_context(viewport=SIZES["360x740"], has_touch=True)
    try:
        sign_in(context, base, alice)
        match = table_in(alice, "discard")
        page = context.new_page()
        page.goto(f"{base}/games/{match.public_id}/")
        page.wait_for_function("window.htmx !== undefined")
        page.wait_for_selector("#hand .hand-cards[data-sortable]", state="attached")
        page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
        codes = page.locator("#hand .hand-cards > li").evaluate_all(
            "els => els.map(e => e.dataset.code)"
        )
        aimed = "KD"
        neighbour = codes[codes.index(aimed) - 1]
        box = page.locator(f'#hand li[data-code="{aimed}"]').bounding_box()
        left = page.locator(f'#hand li[data-code="{neighbour}"]').bounding_box()
        assert box is not None and left is not None
        x, y = box["x"] + CORNER["x"], box["y"] + CORNER["y"]
        page.touchscreen.tap(x, y)
        # The hand slides one card's step to the right, as it does making room for a card:
        # the neighbour's corner is now under the finger. One round trip between the taps
        # (a busy machine must not stretch them past the double tap's half second).
        under = page.evaluate(
            """([step, x, y]) => {
                document.querySelector('#hand .hand-cards').animate(
                    [{transform: `translateX(${step}px)`}, {transform: `translateX(${step}px)`}],
                    {duration: 4000});
                return document.elementFromPoint(x, y).closest('li').dataset.code;
            }""",
            [box["x"] - left["x"], x, y],
        )
        assert under == neighbour
        page.touchscreen.tap(x, y)
        expect(page.locator("#history .moves")).to_contain_text("You discarded K♦")
        expect(page.locator(f'#hand li[data-code="{aimed}"]')).to_have_count(0)
        expect(page.locator(f'#hand li[data-code="{neighbour}"]')).to_have_count(1)
    finally:
        context.close()
