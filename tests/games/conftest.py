"""Helpers for the table's view tests: stacked decks, matches against Bea, moves by POST."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engine import ALL_CARDS, display, player_view
from games.labels import card_name
from games.models import Action, Match
from games.state_cache import load_state

from .live_helpers import cookie_of, signed_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpResponse


def hand(text: str) -> list[str]:
    return text.split()


def stacked(alice: str, bea: str, upcard: str, stock_top: str = "") -> list[str]:
    """A deck dealing ``alice`` to seat 0 and ``bea`` to seat 1, turning up ``upcard``, with
    ``stock_top`` on top of the stock and the other cards after it."""
    head = [*hand(alice), *hand(bea), upcard, *hand(stock_top)]
    assert len(head) == len(set(head)), "a card dealt twice"
    assert len(hand(alice)) == 10 and len(hand(bea)) == 10
    return head + [c for c in ALL_CARDS if c not in head]


# Alice holds three runs and K♦ (10 deadwood); Bea holds nothing that melds or lays off.
ALICE_KNOCKS = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD"
BEA_LOOSE = "5C JC 3D 9D QD 8H JH 6S 9S KS"


def start(
    user: User,
    deck: list[str] | None = None,
    *,
    preset: str = "standard",
    target: int = 100,
    level: str = "easy",
) -> Match:
    return services.start_bea_match(user, preset, target, level, deck=deck, replace_running=True)


def bea_moves(match: Match, *actions: dict[str, Any]) -> None:
    """Play Bea's seat with exactly these actions (set-up, not her own choice)."""
    for action in actions:
        match.refresh_from_db()
        services.submit(match, 1, action, match.version)


def url(match: Match, name: str) -> str:
    return reverse(f"games:{name}", args=[match.public_id])


def move(
    client: Client,
    match: Match,
    name: str,
    card: str = "",
    *,
    version: int | None = None,
    htmx: bool = False,
    **extra: Any,
) -> HttpResponse:
    """POST one move as the table's buttons do."""
    match.refresh_from_db()
    data: dict[str, Any] = {"move": name, "version": match.version if version is None else version}
    if card:
        data["card"] = card
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(url(match, "act"), data, **headers, **extra)


def snapshot(match: Match) -> tuple[int, int]:
    """What must not change when a request is refused: the version and the stored actions."""
    match.refresh_from_db()
    return match.version, Action.objects.filter(match=match).count()


def hidden_cards(match: Match, seat: int = 0) -> list[str]:
    """Cards ``seat`` may not see right now: the opponent's unknown cards and the stock."""
    match.refresh_from_db()  # right now: the match may have moved since the caller read it
    view = player_view(load_state(match), seat)
    seen = set(view["hand"]) | set(view["discard_pile"]) | set(view["known_opponent_cards"])
    for m in view["moves"]:
        if m.get("card"):
            seen.add(m["card"])
    return [c for c in ALL_CARDS if c not in seen]


def assert_no_leak(html: str, cards: list[str]) -> None:
    """None of ``cards`` appears in the page: as a code, a glyph label or a spoken name."""
    for code in cards:
        for shown in (f'"{code}"', f">{code}<", display(code), card_name(code)):
            assert shown not in html, f"{code} leaked as {shown!r}"


@pytest.fixture
def cookies(alice: User, bob: User, carol: User) -> dict[str, bytes]:
    """The session cookie of each of alice, bob and carol, signed in: for table sockets."""
    return {u.username: cookie_of(signed_in(u)) for u in (alice, bob, carol)}


@pytest.fixture
def alice_client(alice: User) -> Client:
    client = Client()
    client.force_login(alice)
    return client


@pytest.fixture
def bob_client(bob: User) -> Client:
    client = Client()
    client.force_login(bob)
    return client


@pytest.fixture
def csrf_client(alice: User) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    return client
