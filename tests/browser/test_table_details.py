"""The table's finer points in real Chromium: motion that never waits, the undercut note's
contrast, the invitation folding away, the challenge's countdown and passing notices."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from games import access
from games.private import tables as private
from lobby.models import Challenge, Presence
from tests.browser.table_helpers import (
    ARTIFACTS,
    SIZES,
    knocked_against,
    off_thread,
    sign_in,
    table_in,
)
from tests.browser.test_table_layout import outside

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HAND_ANIMATIONS = """() => document.getAnimations().filter(a =>
    a.effect && a.effect.target && a.effect.target.matches('#hand li[data-code]')).length"""


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=SIZES["390x844"])
    yield context
    context.close()


def test_the_drawn_card_flies_in_while_the_hand_already_holds_it(
    phone: BrowserContext, base: str, alice: User
):
    sign_in(phone, base, alice)
    match = table_in(alice, "draw")
    page = phone.new_page()
    page.goto(f"{base}/games/{match.public_id}/")
    page.locator("#actions button[value=draw_stock]").click()
    # The animation runs on a page that is already in its new state: the move is not held
    # back for it.
    page.wait_for_function(f"({HAND_ANIMATIONS})() > 0")
    assert page.locator("#hand li[data-code]").count() == 11
    assert page.locator("#hand .card.just-drawn").count() == 1
    # Bea's draw and discard are shown as moves too.
    code = page.locator("#hand .card.just-drawn").get_attribute("data-code")
    page.locator(f"#hand input[value='{code}']").evaluate("e => e.closest('label').click()")
    page.locator("#actions button[value=discard]").click()
    page.wait_for_function(
        """() => document.getAnimations().some(a => a.effect && a.effect.target &&
            a.effect.target.closest('#opponent .backs, #pile .discard'))""",
        timeout=15_000,
    )


def test_it_keeps_still_for_reduced_motion(browser: Browser, base: str, alice: User):
    context = browser.new_context(viewport=SIZES["360x740"], reduced_motion="reduce")
    try:
        sign_in(context, base, alice)
        match = table_in(alice, "draw")
        page = context.new_page()
        page.goto(f"{base}/games/{match.public_id}/")
        page.locator("#actions button[value=draw_stock]").click()
        expect(page.locator("#hand li[data-code]")).to_have_count(11)
        assert page.evaluate(HAND_ANIMATIONS) == 0
    finally:
        context.close()


def _luminance(rgb: list[float]) -> float:
    def channel(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: list[float], b: list[float]) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_undercut_note_is_legible_on_the_felt(phone: BrowserContext, base: str, alice: User):
    sign_in(phone, base, alice)
    # Bea holds three runs and 2♥: she undercuts Alice's knock.
    public_id = knocked_against(alice, "2C 3C 4C 7D 8D 9D 8H 9H TH 2H")
    page = phone.new_page()
    page.goto(f"{base}/games/{public_id}/")
    note = page.locator("#result .note")
    expect(note).to_contain_text("undercut")
    colours = page.evaluate(
        """() => {
            const rgb = s => s.match(/[\\d.]+/g).map(Number);
            const probe = document.createElement('div');
            document.body.appendChild(probe);
            const felt = ['--felt', '--felt-dark'].map(v => {
                probe.style.color = getComputedStyle(document.documentElement).getPropertyValue(v);
                return rgb(getComputedStyle(probe).color);
            });
            probe.remove();
            const note = getComputedStyle(document.querySelector('#result .note')).color;
            return {note: rgb(note), felt};
        }"""
    )
    for felt in colours["felt"]:
        assert _contrast(colours["note"], felt) >= 4.5


def test_the_invitation_folds_away_once_both_seats_are_taken(browser: Browser, base: str):
    table, _match, key = off_thread(lambda: private.open_table(None, name="Hal"))
    host_context = browser.new_context(viewport=SIZES["360x740"])
    friend_context = browser.new_context(viewport=SIZES["360x740"])
    try:
        host_context.add_cookies([{"name": access.seat_cookie(table), "value": key, "url": base}])
        host = host_context.new_page()
        host.goto(f"{base}/games/t/{table.token}/")
        invite = host.locator("#invite")
        expect(invite).to_have_attribute("open", "")
        host.wait_for_function("document.querySelector('#live') !== null")
        friend = friend_context.new_page()
        friend.goto(f"{base}/games/t/{table.token}/")
        friend.fill("input[name=name]", "Dora")
        friend.get_by_role("button", name="Take the seat").click()
        expect(friend.locator("#hand")).to_be_attached()
        # The host's page hears of it over the socket: the invitation folds to one line.
        expect(invite).not_to_have_attribute("open", "", timeout=10_000)
        box = invite.bounding_box()
        assert box is not None and box["height"] < 60
        # Both pages send their seeds by themselves, and the hand is dealt to the host.
        expect(host.locator("#hand .hand-cards > li")).to_have_count(10, timeout=10_000)
        # Presence, offers and the invitation sit below the felt: the host's whole playing
        # surface, with the upcard buttons, is in the first screen.
        host.evaluate("window.scrollTo(0, 0)")
        for selector in (
            "#opponent .backs .card",
            "#pile .card",
            "#hand .hand-cards > li",
            "#actions .buttons button",
        ):
            assert host.locator(selector).count(), selector
            assert not outside(host, selector)
        assert friend.locator("#invite[open]").count() == 0
    finally:
        host_context.close()
        friend_context.close()


def _challenge(alice: User, bob: User) -> None:
    # Alice is in the lobby (a fresh presence row), so her challenge shows.
    Presence.objects.create(channel_name="alice-test-page", user=alice, last_seen=timezone.now())
    Challenge.objects.create(
        challenger=alice,
        challenged=bob,
        preset="standard",
        target=100,
        expires_at=timezone.now() + timedelta(seconds=120),
    )


def test_a_challenge_counts_down_and_its_decline_note_goes(
    phone: BrowserContext, base: str, alice: User, bob: User
):
    sign_in(phone, base, bob)
    off_thread(_challenge, alice, bob)
    page: Page = phone.new_page()
    page.clock.install()
    page.goto(f"{base}/lobby/")
    expires = page.locator("#lobby-challenges .expires")
    expect(expires).to_contain_text("second")
    # Stand the page's clock still just after a tick: from here it moves only when told, so
    # a slow machine's seconds between the two reads do not count down too (CI once read 118
    # and then 105: the load and the reads took three seconds of their own).
    now = datetime.fromtimestamp(page.evaluate("Date.now()") / 1000, tz=UTC)
    page.clock.pause_at(now + timedelta(seconds=1.5))
    first = int("".join(ch for ch in expires.inner_text() if ch.isdigit()))
    page.clock.run_for(10_000)
    later = int("".join(ch for ch in expires.inner_text() if ch.isdigit()))
    assert first - 11 <= later <= first - 9
    page.clock.resume()
    page.get_by_role("button", name="Maybe later").click()
    notice = page.locator("#lobby-notice")
    expect(notice).to_contain_text("Challenge declined.")
    page.clock.run_for(8_000)
    expect(notice).to_have_text("")


def test_a_second_tab_follows_the_first_and_says_so_when_it_fell_behind(
    phone: BrowserContext, base: str, alice: User
):
    sign_in(phone, base, alice)
    match = table_in(alice, "draw")
    first = phone.new_page()
    second = phone.new_page()
    for page in (first, second):
        page.goto(f"{base}/games/{match.public_id}/")
        page.wait_for_function("document.querySelector('#hand li[data-code]') !== null")
    # A move in the first tab reaches the second over its socket, without a reload.
    first.locator("#actions button[value=draw_stock]").click()
    expect(second.locator("#hand li[data-code]")).to_have_count(11, timeout=10_000)
    # A stale form (the second tab's copy of the Draw button's version) is refused with
    # words a player understands, and the tab shows the table as it is.
    second.evaluate(
        """() => {
            const form = document.getElementById('play');
            form.querySelector('input[name=version]').value = '0';
        }"""
    )
    code = second.locator("#hand .card.just-drawn").get_attribute("data-code")
    second.locator(f"#hand input[value='{code}']").evaluate("e => e.closest('label').click()")
    second.locator("#actions button[value=discard]").click()
    expect(second.locator("#notice")).to_contain_text("changed in another tab")
    expect(second.locator("#hand li[data-code]")).to_have_count(11)


def test_the_four_colour_deck_gives_every_suit_its_own_colour(
    phone: BrowserContext, base: str, alice: User
):
    alice.profile.four_colour_deck = True
    alice.profile.save(update_fields=["four_colour_deck"])
    sign_in(phone, base, alice)
    match = table_in(alice, "discard")
    page = phone.new_page()
    page.goto(f"{base}/games/{match.public_id}/")
    colours = page.evaluate(
        """() => Object.fromEntries(['C', 'D', 'H', 'S'].map(s => {
            const card = document.querySelector(`#hand .card.suit-${s}`);
            return [s, card ? getComputedStyle(card).color : null];
        }))"""
    )
    assert None not in colours.values()
    assert len(set(colours.values())) == 4, colours
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "table-four-colour-390x844.png"))
