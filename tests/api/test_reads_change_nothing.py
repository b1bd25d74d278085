"""A GET of any API endpoint changes nothing: every path in the OpenAPI schema is read, by a
player and by a watcher, while a lobby match waits for its next move and a match against Bea
is left in her turn, and every match stays at the version and status it had."""

from __future__ import annotations

import pytest

from games import services
from games.bea import turns as bea_turns
from games.events import match_changed
from games.models import Action, Match
from lobby.models import Challenge, Seek
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.games.live_helpers import lobby_match

from .conftest import Api, body

pytestmark = pytest.mark.django_db(transaction=True)

DECK = stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D")


def _state() -> list[tuple[str, int, str, int]]:
    return sorted(
        (m.public_id, m.version, m.status, Action.objects.filter(match=m).count())
        for m in Match.objects.all()
    )


def _bea_left_in_her_turn(user) -> Match:  # type: ignore[no-untyped-def]
    """A match against Bea in her turn whose reply was never scheduled (as after a crash)."""
    match = services.start_bea_match(user, "standard", 100, "easy", deck=DECK)
    match_changed.disconnect(dispatch_uid="games.bea.turns")
    try:
        services.submit(match, 0, {"type": "pass"}, 0)
    finally:
        match_changed.connect(bea_turns.on_change, dispatch_uid="games.bea.turns")
    return match


def test_no_get_changes_a_match(alice_api: Api, bob_api: Api, carol_api: Api, alice, bob, carol):
    lobby = lobby_match(alice, bob, deck=DECK)
    bea = _bea_left_in_her_turn(carol)
    challenge = Challenge.objects.create(
        challenger=alice,
        challenged=carol,
        preset="standard",
        target=100,
        expires_at=lobby.created_at,
    )
    seek = Seek.objects.create(poster=bob, preset="standard", target=100)
    schema = body(alice_api.get("/openapi.json"))
    ids = {
        "match_id": (lobby.public_id, bea.public_id),
        "challenge_id": (str(challenge.pk),),
        "seek_id": (str(seek.pk),),
        "username": ("alice", "bob"),
        "preset": ("standard",),
    }
    before = _state()
    read = 0
    for template, operations in schema["paths"].items():
        if "get" not in operations or template.endswith("/events/stream"):
            continue  # the stream never ends; tests/api/test_events.py reads it
        path = template.removeprefix("/api/v1")
        concrete_paths = [path]
        for name, values in ids.items():
            if "{" + name + "}" in path:
                concrete_paths = [
                    p.replace("{" + name + "}", v) for p in concrete_paths for v in values
                ]
        for concrete in concrete_paths:
            for api in (alice_api, bob_api, carol_api):
                response = api.get(concrete)
                assert response.status_code < 500, (concrete, response.content)
                read += 1
    assert bea_turns.worker.wait_idle(10)
    assert read > 30
    assert _state() == before
