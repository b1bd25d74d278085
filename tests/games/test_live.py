"""Live play over HTTP: watching, offers (rematch, restart), claiming the win on time, and
every new request refused with 409 when stale or repeated."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.live import connection as live_table
from games.live import presence
from games.models import Match, Offer, Seat
from games.records.stats import player_stats

from .conftest import ALICE_KNOCKS, BEA_LOOSE, move, snapshot, stacked, start, url
from .live_helpers import lobby_match, shown_cards

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def match(alice: User, bob: User) -> Match:
    return lobby_match(alice, bob, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))


def _post(client: Client, match: Match, name: str, **data: object):  # type: ignore[no-untyped-def]
    match.refresh_from_db()
    data.setdefault("version", match.version)
    return client.post(url(match, name), data, **HTMX)


def _offers(match: Match) -> list[tuple[str, str]]:
    return list(Offer.objects.filter(match=match).order_by("pk").values_list("kind", "status"))


def test_it_connects_a_lobby_table_to_its_socket(match: Match, alice_client: Client):
    page = alice_client.get(url(match, "table")).content.decode()
    assert f'ws-connect="/ws/games/{match.public_id}/?lang=en"' in page
    assert 'hx-ext="ws"' in page
    assert "bob: away" in page


def test_a_table_against_bea_has_a_socket_for_her_moves_but_no_presence(
    alice: User, alice_client: Client
):
    match = start(alice)
    page = alice_client.get(url(match, "table")).content.decode()
    assert f'ws-connect="/ws/games/{match.public_id}/?lang=en"' in page
    assert '<section id="live" class="region live" hidden' in page


def test_it_lets_a_signed_in_watcher_see_neither_hand(match: Match, carol: User):
    carol_client = Client()
    carol_client.force_login(carol)
    response = carol_client.get(url(match, "table"))
    assert response.status_code == 200
    page = response.content.decode()
    assert shown_cards(page, ALICE_KNOCKS) == [] and shown_cards(page, BEA_LOOSE) == []
    assert "alice: away" in page and "bob: away" in page
    for button in ('name="move"', "Resign", "Offer", "Hint"):
        assert button not in page


def test_it_keeps_anonymous_visitors_and_watchers_of_bea_out(
    alice: User, carol: User, match: Match
):
    assert Client().get(url(match, "table")).status_code == 302
    carol_client = Client()
    carol_client.force_login(carol)
    assert carol_client.get(url(start(alice), "table")).status_code == 404


def test_a_watcher_cannot_make_offers_or_claims(match: Match, carol: User):
    carol_client = Client()
    carol_client.force_login(carol)
    for name in ("offer", "answer", "claim", "act"):
        assert _post(carol_client, match, name, kind="restart").status_code == 403
    assert _offers(match) == []


def test_it_restarts_the_match_when_both_agree(
    match: Match, alice_client: Client, bob_client: Client
):
    move(alice_client, match, "pass")
    response = _post(alice_client, match, "offer", kind="restart")
    assert response.status_code == 200
    assert "You offered bob to restart the match." in response.content.decode()
    # A double click: the offer is already open.
    assert _post(alice_client, match, "offer", kind="restart").status_code == 409
    offer = Offer.objects.get(match=match)
    bob_page = bob_client.get(url(match, "table")).content.decode()
    assert "alice offers to restart the match from the first deal." in bob_page
    # Alice cannot accept her own offer.
    assert _post(alice_client, match, "answer", offer=offer.pk, answer="accept").status_code == 403

    response = _post(bob_client, match, "answer", offer=offer.pk, answer="accept")
    assert response.status_code == 204
    new = Match.objects.get(previous=match)
    assert response["HX-Redirect"] == reverse("games:table", args=[new.public_id])
    match.refresh_from_db()
    assert match.status == Match.Status.RESTARTED
    assert [s.user.username for s in new.seats.all()] == ["alice", "bob"]
    assert new.rules == match.rules and new.version == 0 and new.kind == Match.Kind.LOBBY
    # Accepting again changes nothing.
    assert _post(bob_client, match, "answer", offer=offer.pk, answer="accept").status_code == 409
    assert Match.objects.filter(previous=match).count() == 1
    # The old table sends both players on.
    assert "Go to the new match" in alice_client.get(url(match, "table")).content.decode()
    assert player_stats(match.seats.get(number=0).user)["matches_played"] == 0


def test_it_refuses_an_offer_made_on_an_earlier_position(match: Match, alice_client: Client):
    before = snapshot(match)
    response = _post(alice_client, match, "offer", kind="restart", version=5)
    assert response.status_code == 409
    assert snapshot(match) == before and _offers(match) == []
    assert _post(alice_client, match, "offer", kind="restart", version="").status_code == 400


def test_it_offers_a_rematch_after_the_match_with_the_seats_swapped(
    match: Match, alice: User, alice_client: Client, bob_client: Client
):
    assert _post(alice_client, match, "offer", kind="rematch").status_code == 400
    services.resign(match, 1, match.version)
    _post(alice_client, match, "offer", kind="rematch")
    offer = Offer.objects.get(match=match)
    response = _post(bob_client, match, "answer", offer=offer.pk, answer="decline")
    assert response.status_code == 200
    assert "You declined the offer." in response.content.decode()
    assert "bob declined your offer." in alice_client.get(url(match, "table")).content.decode()
    assert _post(bob_client, match, "answer", offer=offer.pk, answer="accept").status_code == 409

    _post(alice_client, match, "offer", kind="rematch")
    again = Offer.objects.get(match=match, status=Offer.Status.PENDING)
    response = bob_client.post(
        url(match, "answer"), {"offer": again.pk, "answer": "accept", "version": match.version}
    )
    new = Match.objects.get(previous=match)
    assert response.status_code == 302 and response["Location"] == url(new, "table")
    assert [s.user.username for s in new.seats.all()] == ["bob", "alice"]
    assert _offers(match) == [("rematch", "declined"), ("rematch", "accepted")]
    # No second rematch from the same match.
    assert _post(alice_client, match, "offer", kind="rematch").status_code == 409


def test_a_rematch_waits_while_a_player_is_in_another_lobby_match(
    match: Match, alice_client: Client, bob_client: Client, carol: User
):
    services.resign(match, 1, match.version)
    _post(alice_client, match, "offer", kind="rematch")
    offer = Offer.objects.get(match=match)
    # Meanwhile bob sat down with carol: one lobby match at a time.
    other = lobby_match(carol, match.seats.get(number=1).user)
    response = _post(bob_client, match, "answer", offer=offer.pk, answer="accept")
    assert response.status_code == 409
    assert "in another lobby match" in response.content.decode()
    assert not Match.objects.filter(previous=match).exists()
    assert Offer.objects.get(pk=offer.pk).status == Offer.Status.PENDING
    services.resign(other, 0, other.version)
    response = _post(bob_client, match, "answer", offer=offer.pk, answer="accept")
    assert response.status_code == 204 and Match.objects.filter(previous=match).exists()


def test_the_offerer_may_withdraw(match: Match, alice_client: Client, bob_client: Client):
    _post(alice_client, match, "offer", kind="restart")
    offer = Offer.objects.get(match=match)
    assert _post(bob_client, match, "answer", offer=offer.pk, answer="withdraw").status_code == 403
    assert (
        _post(alice_client, match, "answer", offer=offer.pk, answer="withdraw").status_code == 200
    )
    assert _offers(match) == [("restart", "withdrawn")]


def _bob_away(match: Match, seconds: int) -> None:
    Seat.objects.filter(match=match, number=1).update(
        connections=0, last_seen=timezone.now() - timedelta(seconds=seconds)
    )


def test_it_lets_a_player_claim_the_win_when_the_one_to_move_is_away(
    match: Match, alice_client: Client
):
    move(alice_client, match, "pass")  # bob to move
    _bob_away(match, 30)
    assert "Claim the win" not in alice_client.get(url(match, "table")).content.decode()
    assert _post(alice_client, match, "claim").status_code == 422

    _bob_away(match, live_table.CLAIM_AFTER_SECONDS + 5)
    page = alice_client.get(url(match, "table")).content.decode()
    assert "bob has been away for more than a minute in their turn." in page
    assert "Claim the win" in page
    assert _post(alice_client, match, "claim", version=0).status_code == 409
    response = _post(alice_client, match, "claim")
    assert response.status_code == 200
    assert "This match was won on time." in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.TIMED_OUT and match.winner_seat == 0
    assert _post(alice_client, match, "claim").status_code == 409


def test_only_the_one_waiting_may_claim(match: Match):
    # Alice is to move and away: bob may claim, alice may not, however long bob is away.
    for number in (0, 1):
        Seat.objects.filter(match=match, number=number).update(
            connections=0, last_seen=timezone.now() - timedelta(minutes=5)
        )
    assert live_table.claimable(match, 1)
    assert not live_table.claimable(match, 0)


def test_a_connected_seat_with_a_stale_heartbeat_counts_as_away(match: Match):
    Seat.objects.filter(match=match, number=1).update(
        connections=1, last_seen=timezone.now() - timedelta(minutes=5)
    )
    seat = Seat.objects.get(match=match, number=1)
    assert not presence.is_connected(seat)
    Seat.objects.filter(match=match, number=1).update(last_seen=timezone.now())
    assert presence.is_connected(Seat.objects.get(match=match, number=1))
