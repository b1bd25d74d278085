"""Taking the lesson through the table's own views: the learner's moves as the buttons post
them, Bea's as her turns play them."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from games.bea import turns as bea_turns
from games.lesson import script
from games.models import Match
from games.state_cache import load_state

from .conftest import move


def form_move(action: dict[str, Any]) -> tuple[str, str]:
    """The button (and card) that posts ``action``."""
    if action["type"] == "draw":
        return f"draw_{action['from']}", ""
    return action["type"], action.get("card", "")


def begin(client: Client) -> Match:
    """Start a lesson as the home page's button does; the browser keeps the guest key."""
    response = client.post(reverse("games:lesson"))
    assert response.status_code == 302
    return Match.objects.get(public_id=response["Location"].strip("/").split("/")[-1])


def where(match: Match) -> script.Position:
    match.refresh_from_db()
    state = load_state(match)
    return script.position(state.hand_number, len(state.moves), state.phase)


def play_to(client: Client, match: Match, key: str, **extra: Any) -> None:
    """Play the script (the learner through ``client``, Bea through her turns) until the
    lesson stands at ``key``."""
    for _ in range(40):
        at = where(match)
        if at.key == key:
            return
        expected = at.next_move
        assert expected is not None, f"the lesson ended before {key}"
        if expected.seat == script.BEA:
            assert bea_turns.play(match), at.key
            continue
        name, card = form_move(expected.action)
        response = move(client, match, name, card, **extra)
        assert response.status_code in (200, 302), response.content.decode()[:400]
    raise AssertionError(f"never reached {key}")
