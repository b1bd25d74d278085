"""What one move reads: the match's offers once for everyone who sees the new position (the
mover's answer and both players' events), and still the offer that is open."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import readers
from games.models import Match
from lobby.events import log as event_log
from lobby.models import PlayerEvent
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.games.live_helpers import lobby_match

from .conftest import Api, body

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob) -> Match:
    return lobby_match(alice, bob, deck=stacked(ALICE_KNOCKS, BEA_LOOSE, "2D", "KC"))


def test_a_move_reads_the_offers_once_and_every_view_shows_the_open_one(
    alice_api: Api, bob_api: Api, match: Match, bob
):
    restart = {"kind": "restart", "version": 0}
    offered = alice_api.post(f"/matches/{match.public_id}/offers", restart)
    assert offered.status_code == 201, offered.content
    with CaptureQueriesContext(connection) as queries:
        moved = alice_api.post(
            f"/matches/{match.public_id}/actions", {"action": {"type": "pass"}, "version": 0}
        )
    assert moved.status_code == 200, moved.content
    answer = body(moved)
    assert answer["version"] == 1
    assert answer["live"]["offer"]["kind"] == "restart"
    offer_reads = [q["sql"] for q in queries if 'FROM "games_offer"' in q["sql"]]
    assert len(offer_reads) == 1, offer_reads
    # bob's event of the move carries his view with alice's offer in it.
    event = PlayerEvent.objects.filter(user=bob, kind="match").order_by("-seq").first()
    assert event is not None and event.payload["version"] == 1
    bobs = body(bob_api.get(f"/matches/{match.public_id}"))
    assert bobs["version"] == 1 and bobs["live"]["offer"]["from_seat"] == 0


def test_a_move_reads_the_seats_with_their_names_once_under_the_lock(
    alice_api: Api, match: Match, alice, bob
):
    """The door locks the match by its id and finds the mover's seat among its seats, read
    under the lock with the players' names (no read of the seat before; on PostgreSQL in the
    lock's own round trip); the answer shows those names without reading them again."""
    alice.profile.display_name = "Alice Zed"
    alice.profile.save()
    with CaptureQueriesContext(connection) as queries:
        moved = alice_api.post(
            f"/matches/{match.public_id}/actions", {"action": {"type": "pass"}, "version": 0}
        )
    assert moved.status_code == 200, moved.content
    seat_reads = [q["sql"] for q in queries if 'FROM "games_seat"' in q["sql"]]
    assert len(seat_reads) == 1, seat_reads
    match_reads = [q["sql"] for q in queries if 'FROM "games_match" m' in q["sql"]]
    assert len(match_reads) == 1 and 'WHERE m."public_id"' in match_reads[0], match_reads
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in match_reads[0]
    if connection.vendor == "postgresql":
        # The lock, the seats and the offers travel together: one round trip.
        assert seat_reads == match_reads
    names = {s["seat"]: s["display_name"] for s in body(moved)["seats"]}
    assert names[0] == "Alice Zed" and names[1] == bob.profile.display_name


def test_a_move_renders_each_players_view_once_for_the_events_and_the_answer(
    alice_api: Api, match: Match, alice, monkeypatch
):
    """The mover's answer shows the same position as the mover's own event of the move, from
    the one rendering of it (before, the answer rendered the mover's view a second time)."""
    rendered: list[int | None] = []
    render = readers._render

    def counted(match: Match, seat: int | None) -> dict:
        rendered.append(seat)
        return render(match, seat)

    monkeypatch.setattr(readers, "_render", counted)
    moved = alice_api.post(
        f"/matches/{match.public_id}/actions", {"action": {"type": "pass"}, "version": 0}
    )
    assert moved.status_code == 200, moved.content
    assert sorted(rendered) == [0, 1]
    answer = body(moved)
    event = PlayerEvent.objects.filter(user=alice, kind="match").order_by("-seq").first()
    assert event is not None and event.payload["version"] == answer["version"] == 1
    # alice's stream, reading the event later, renders her view again: the answer's.
    delivered = event_log.deliver(alice, [event])[0]["data"]["view"]
    assert {**delivered, "live": None} == {**answer["view"], "live": None}
    assert sorted(rendered) == [0, 0, 1], rendered
