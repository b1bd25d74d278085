"""Bea's review on a phone: the replay of a finished hand shows its accuracy table, the mark
beside a costly move and her judgement on the board, within the screen's width."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from games import access
from games.local import play as local
from games.records import replays
from tests.review.positions import UNDERCUT, UNDERCUT_AT, UNDERCUT_DECK
from tests.review.test_review_pages import play

from .conftest import phone_contexts

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_review_fits_a_phone_and_marks_the_knock(browser: Browser, base: str):
    match = local.start(None, "the-owner-key", "Ann", "Ben", deck=UNDERCUT_DECK)
    play(match, UNDERCUT)
    with phone_contexts(browser, 1) as (context,):
        value = access.key_cookie_value(access.OWNER_COOKIE, "the-owner-key")
        context.add_cookies([{"name": access.OWNER_COOKIE, "value": value, "url": base}])
        page = context.new_page()
        page.goto(base + replays.url(match, 1, UNDERCUT_AT))
        review = page.locator("#replay-review")
        assert review.get_by_role("row", name="Ann").is_visible()
        assert "Bea would have held on" in page.locator("#move-judgement").inner_text()
        assert page.locator(f"#move-{UNDERCUT_AT} .mark").inner_text() in ("?", "??")
        page.screenshot(path="/tmp/review-phone.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
