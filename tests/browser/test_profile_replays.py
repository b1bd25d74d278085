"""The replays of a match's hands on the profile (issue 23), in real Chromium on a phone: not
bare numbers stacked in a cell but a labelled row of chips, "Hand 1 2 3", each a touch-sized
link named for what it opens; the replay page lists the match's hands the same way."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, expect

from games import services
from games.readers import view_for
from tests.browser.table_helpers import ARTIFACTS, SIZES, off_thread, sign_in
from tests.games.live_helpers import lobby_match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from games.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The simplest play there is: knock or go gin when possible, pass the upcard, draw from the
# stock and throw the first card allowed. Every hand ends: a knock, or the stock runs down.
PREFERENCE = (
    "seed",
    "gin",
    "big_gin",
    "knock",
    "pass",
    "take_upcard",
    "draw",
    "discard",
    "next_hand",
)


def _play_hands(alice: User, bob: User, hands: int) -> Match:
    match = lobby_match(alice, bob)
    while True:
        match.refresh_from_db()
        views = [view_for(match, seat) for seat in (0, 1)]
        if views[0]["hand_number"] > hands:
            break
        seat = next(s for s in (0, 1) if views[s]["legal_actions"])
        legal = views[seat]["legal_actions"]
        action = min(legal, key=lambda a: (PREFERENCE.index(a["type"]), a.get("from") != "stock"))
        services.submit(match, seat, action, match.version)
    services.resign(match, 1, match.version)
    return match


def test_the_profile_lists_each_hand_as_a_labelled_chip(
    browser: Browser, base: str, alice: User, bob: User
):
    match = off_thread(_play_hands, alice, bob, 3)
    context = browser.new_context(viewport=SIZES["360x740"])
    try:
        sign_in(context, base, alice)
        page = context.new_page()
        page.goto(base + reverse("lobby:player", args=["alice"]))
        cell = page.locator(f'#player-matches tr[data-match="{match.public_id}"] .replays')
        expect(cell.locator(".chips-label")).to_have_text("Hand")
        chips = [cell.get_by_role("link", name=f"Replay hand {n}", exact=True) for n in (1, 2, 3)]
        tops = []
        for n, chip in enumerate(chips, start=1):
            expect(chip).to_have_text(str(n))
            box = chip.bounding_box()
            assert box is not None
            assert box["width"] >= 24 and box["height"] >= 24, box
            tops.append(box["y"])
        # One row, not a stack of numbers.
        assert max(tops) - min(tops) < 1, tops
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "profile-replays-360x740.png"), full_page=True)
        chips[1].click()
        page.wait_for_url("**/replay/2/")
        hands = page.locator(".replay-hands")
        expect(hands.locator("[aria-current=page]")).to_have_text("2")
        expect(hands.get_by_role("link", name="Replay hand 3", exact=True)).to_be_visible()
    finally:
        context.close()
