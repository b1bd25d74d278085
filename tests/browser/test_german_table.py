"""A German table stays German after every pushed update, in real Chromium (issue 23, defect
2): a guest who chose German with the switcher or by the browser's language, through Bea's
moves; a signed-in German player through a person's moves, whose own page stays English."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games.models import Match
from tests.browser.conftest import PHONE
from tests.browser.table_helpers import ARTIFACTS, off_thread, sign_in
from tests.browser.turns import take_turns
from tests.games.live_helpers import english, lobby_match

if TYPE_CHECKING:
    from collections.abc import Iterator

    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def made(browser: Browser) -> Iterator[list[BrowserContext]]:
    contexts: list[BrowserContext] = []
    yield contexts
    for context in contexts:
        context.close()


def table_words(page: Page) -> list[str]:
    """The English phrases on the table as it is now (its regions, pushed or not)."""
    return english(page.locator("#table").evaluate("e => e.outerHTML"))


@pytest.mark.parametrize("how", ["switcher", "browser"])
def test_a_german_guest_s_table_stays_german_through_bea_s_moves(
    browser: Browser, made: list[BrowserContext], base: str, quick_bea: None, how: str
):
    locale = "de-DE" if how == "browser" else "en-US"
    made.append(context := browser.new_context(viewport=PHONE, locale=locale))
    page = context.new_page()
    page.goto(base + "/")
    if how == "switcher":
        page.locator(".language-switcher button[value=de]").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.locator(f"form[action='{reverse('games:new')}'] button[type=submit]").first.click()
    page.wait_for_url(re.compile(r".*/games/[\w-]+/$"))
    expect(page.locator("#pile")).to_contain_text("Talon")
    take_turns([page], 3)
    # Bea's moves came over the socket; the log names them in German.
    expect(page.locator("#history")).to_contain_text("Bea:")
    expect(page.locator("#status")).to_contain_text("Du bist dran")
    assert table_words(page) == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"live-german-guest-{how}-360x740.png"), full_page=True)


def test_a_german_player_s_table_stays_german_through_a_person_s_moves(
    browser: Browser, made: list[BrowserContext], base: str, alice: User, bob: User
):
    for user, language in ((alice, "de"), (bob, "")):
        user.profile.language = language
        user.profile.save()
    match: Match = off_thread(lobby_match, alice, bob)
    pages = []
    for user, locale in ((alice, "de-DE"), (bob, "en-US")):
        made.append(context := browser.new_context(viewport=PHONE, locale=locale))
        sign_in(context, base, user)
        pages.append(page := context.new_page())
        page.goto(f"{base}/games/{match.public_id}/")
    german, english_page = pages
    take_turns(pages, 4)
    expect(german.locator("#live")).to_contain_text("verbunden")
    assert table_words(german) == []
    ARTIFACTS.mkdir(exist_ok=True)
    german.screenshot(path=str(ARTIFACTS / "live-german-player-360x740.png"), full_page=True)
    # The other reader of the same pushes reads them in English.
    expect(english_page.locator("#pile")).to_contain_text("Stock ·")
    assert "Talon" not in english_page.locator("#table").inner_text()
