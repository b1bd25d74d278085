"""Bea while you wait, in real Chromium, in English and German (docs/playnow.md): alone in the
pool a player sees the countdown, then Bea's offer, plays her and stays in the pool; when a
second player presses the same tile, the first is told at Bea's table, pushed, with no page
load, and switches to the same table as the second. Page loads are counted on every page."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games.models import Match
from lobby.models import PoolEntry
from tests.browser.conftest import PHONE
from tests.browser.live_asgi import wait_idle
from tests.browser.table_helpers import ARTIFACTS, sign_in
from tests.browser.test_accessibility import serious
from tests.browser.turns import Watch

if TYPE_CHECKING:
    from collections.abc import Iterator

    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A ceiling, not a pace: CI's two runs at once took more than 5 s to pair bob and load his table.
LIVE_MS = 15_000
TABLE = re.compile(r".*/games/[\w-]+/$")
TILE = "#lobby-pool button[name=tile][value='standard:100']"

WORDS = {
    "en": {
        "countdown": "Bea is offered in",
        "offer": "Play Bea, the computer, while you wait?",
        "level": "Level medium",
        "play": "Play Bea while I wait",
        "still": "You are still in the pool for Standard to 100.",
        "found": "bob is waiting for you at a table (Standard to 100).",
        "switch": "Play bob now",
        "at_bea": "alice is finishing a hand against Bea, the computer",
    },
    "de": {
        "countdown": "Bea wird in",
        "offer": "Gegen Bea, den Computer, spielen, während du wartest?",
        "level": "Stufe mittel",
        "play": "Gegen Bea spielen, während ich warte",
        "still": "Du bist weiter im Pool für",
        "found": "bob wartet an einem Tisch auf dich",
        "switch": "Jetzt gegen bob spielen",
        "at_bea": "alice spielt noch eine Runde gegen Bea, den Computer, zu Ende",
    },
}


@pytest.fixture(autouse=True)
def _short_wait(settings: Any, quick_bea: None) -> None:
    settings.PLAYNOW_BEA_AFTER = 5


@pytest.fixture
def made(browser: Browser) -> Iterator[list[BrowserContext]]:
    contexts: list[BrowserContext] = []
    yield contexts
    for context in contexts:
        context.close()
    wait_idle()


def _lobby(
    browser: Browser, made: list[BrowserContext], base: str, user: User, language: str
) -> tuple[Page, Watch]:
    locale = "de-DE" if language == "de" else "en-US"
    made.append(context := browser.new_context(viewport=PHONE, locale=locale))
    sign_in(context, base, user)
    page = context.new_page()
    watch = Watch(page)
    page.goto(base + "/lobby/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.wait_for_function("document.querySelector('#lobby-players [data-player]') !== null")
    return page, watch


def _loads(watch: Watch) -> list[str]:
    return [url for kind, url in watch.events if kind == "load"]


def _takes_bea(page: Page, words: dict[str, str]) -> str:
    """Press "Play now", watch the countdown, take Bea: the URL of her table."""
    page.locator(TILE).click()
    offer = page.locator("#lobby-pool [data-playnow]")
    # The countdown, and "Play" held while it runs: read in one go (read one after the other,
    # on a loaded machine the countdown was over in between).
    held = page.wait_for_function(
        """words => {
            const offer = document.querySelector('#lobby-pool [data-playnow]');
            const button = offer && offer.querySelector('[data-playnow-play]');
            const counting = offer && offer.textContent.includes(words.countdown);
            return counting && button && {disabled: button.disabled, label: button.innerText};
        }""",
        arg=words,
        timeout=LIVE_MS,
    ).json_value()
    assert held == {"disabled": True, "label": words["play"]}, held
    expect(offer).to_contain_text(words["offer"])
    expect(offer).to_contain_text(words["level"])
    play = offer.get_by_role("button", name=words["play"])
    ARTIFACTS.mkdir(exist_ok=True)
    language = page.evaluate("document.documentElement.lang")
    page.screenshot(path=str(ARTIFACTS / f"playnow-countdown-{language}-360x740.png"))
    expect(play).to_be_enabled(timeout=LIVE_MS)
    assert serious(page) == []  # axe: the tile with the offer
    play.click()
    page.wait_for_url(TABLE)
    expect(page.locator("#playnow-notice")).to_contain_text(words["still"], timeout=LIVE_MS)
    return page.url


@pytest.mark.timeout(120)
@pytest.mark.parametrize("language", ["en", "de"])
def test_alone_in_the_pool_a_player_plays_bea_and_stays_in_it(
    browser: Browser, made: list[BrowserContext], base: str, alice: User, language: str
) -> None:
    page, watch = _lobby(browser, made, base, alice, language)
    table = _takes_bea(page, WORDS[language])
    # Her table is Bea's, and she still waits for a person.
    match = Match.objects.get(kind=Match.Kind.BEA)
    assert table.endswith(f"/games/{match.public_id}/")
    assert PoolEntry.objects.get(user=alice).status == PoolEntry.Status.WAITING
    expect(page.locator("#table")).to_be_visible()
    # One load of the lobby, one of Bea's table: the countdown and the offer came without any.
    assert _loads(watch) == [base + "/lobby/", table]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_second_player_is_paired_and_the_first_switches_from_bea(
    browser: Browser, made: list[BrowserContext], base: str, alice: User, bob: User, language: str
) -> None:
    words = WORDS[language]
    alice_page, alice_watch = _lobby(browser, made, base, alice, language)
    bea_table = _takes_bea(alice_page, words)
    bob_page, bob_watch = _lobby(browser, made, base, bob, language)

    bob_page.locator(TILE).click()
    bob_page.wait_for_url(TABLE, timeout=LIVE_MS)
    lobby_table = bob_page.url
    assert lobby_table != bea_table

    # Pushed to alice at Bea's table: no page load.
    notice = alice_page.locator("#playnow-notice")
    expect(notice).to_contain_text(words["found"], timeout=LIVE_MS)
    assert _loads(alice_watch) == [base + "/lobby/", bea_table]
    alice_page.screenshot(path=str(ARTIFACTS / f"playnow-found-{language}-360x740.png"))
    assert serious(alice_page) == []  # axe: Bea's table with the notice

    # bob is told why alice is not here yet, and how long he waits at most.
    bob_notice = bob_page.locator("#playnow-notice")
    expect(bob_notice).to_contain_text(words["at_bea"])

    notice.get_by_role("button", name=words["switch"]).click()
    alice_page.wait_for_url(lobby_table, timeout=LIVE_MS)
    # On bob's table the line goes, pushed: alice is coming.
    expect(bob_notice).not_to_contain_text(words["at_bea"], timeout=LIVE_MS)
    expect(alice_page.locator("#table")).to_be_visible()
    bea = Match.objects.get(kind=Match.Kind.BEA)
    assert bea.status == Match.Status.RESTARTED and bea.winner_seat is None
    lobby_match = Match.objects.get(kind=Match.Kind.LOBBY)
    assert lobby_table.endswith(f"/games/{lobby_match.public_id}/") and lobby_match.is_active
    # Each page loaded once where it went: the lobby, Bea's table, the table with bob.
    assert _loads(alice_watch) == [base + "/lobby/", bea_table, lobby_table]
    assert _loads(bob_watch) == [base + "/lobby/", lobby_table]
