"""An API player who keeps reading the match or polling their events is at the table: the
win may be claimed against them only once they have shown no sign of life for a minute, as
the table says. Before, a claim went through 30.6 s after their last request (their away time
counted from the match's creation, as if they had never been seen), and the loss on time
lowered their completion badge (issue 28). The clock is frozen and moved by hand."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.live import connection as live_table
from games.live import presence
from games.models import Match, Seat
from lobby.accounts import tokens
from lobby.people import completion
from tests.api.conftest import API, body

from .conftest import ALICE_KNOCKS, BEA_LOOSE, stacked, url
from .live_helpers import lobby_match, signed_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

AWAY_TEXT = "has been away for more than a minute"


class Clock:
    """``timezone.now`` for the whole site, frozen until moved."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    frozen = Clock(timezone.now())
    monkeypatch.setattr(timezone, "now", lambda: frozen.now)
    return frozen


def _bearer(user: User) -> dict[str, str]:
    return {"Authorization": f"Bearer {tokens.create(user, 'bot')[1]}"}


@pytest.fixture
def match(clock: Clock, alice: User, bob: User) -> Match:
    """bob has finished one lobby match (his badge: 100%); in this one he plays through the
    API only, no table socket ever, and it is his move after a move of his."""
    earlier = lobby_match(alice, bob)
    Match.objects.filter(pk=earlier.pk).update(
        status=Match.Status.FINISHED, winner_seat=1, finished_at=clock.now
    )
    assert completion.of(bob.pk) == 100
    match = lobby_match(alice, bob, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    clock.advance(1)
    services.submit(match, 0, {"type": "pass"}, 0)
    clock.advance(1)
    moved = Client().post(
        f"{API}/matches/{match.public_id}/actions",
        {"action": {"type": "pass"}, "version": 1},
        content_type="application/json",
        headers=_bearer(bob),
    )
    assert moved.status_code == 200
    clock.advance(1)
    services.submit(match, 0, {"type": "draw", "from": "stock"}, 2)
    services.submit(match, 0, {"type": "discard", "card": "2D"}, 3)  # bob to move
    return match


def _fresh(match: Match) -> Match:
    return Match.objects.prefetch_related("seats").get(pk=match.pk)


def _api_claim(match: Match, alice: User):  # type: ignore[no-untyped-def]
    match.refresh_from_db()
    return Client().post(
        f"{API}/matches/{match.public_id}/claim",
        {"version": match.version},
        content_type="application/json",
        headers=_bearer(alice),
    )


def _html_claim(match: Match, page: Client):  # type: ignore[no-untyped-def]
    match.refresh_from_db()
    return page.post(url(match, "claim"), {"version": match.version})


def _assert_not_claimable(match: Match, alice: User, bob: User) -> None:
    """Through the API and on alice's page: no claim, and bob's badge unharmed."""
    refused = _api_claim(match, alice)
    assert (refused.status_code, body(refused)["code"]) == (422, "illegal_move")
    page = signed_in(alice)
    html = page.get(url(match, "table")).content.decode()
    assert AWAY_TEXT not in html and 'action="' + url(match, "claim") not in html
    assert _html_claim(match, page).status_code == 422
    match.refresh_from_db()
    assert match.is_active
    assert completion.of(bob.pk) == 100


def _read_every_3_seconds(path: str, bob: User, clock: Clock, times: int = 6) -> None:
    headers = _bearer(bob)
    for _ in range(times):
        clock.advance(3)
        assert Client().get(path, headers=headers).status_code == 200


def test_a_player_reading_the_match_cannot_be_claimed_against_within_the_minute(
    match: Match, alice: User, bob: User, clock: Clock
) -> None:
    _read_every_3_seconds(f"{API}/matches/{match.public_id}", bob, clock)
    clock.advance(30.6)  # where the claim went through before
    _assert_not_claimable(match, alice, bob)
    clock.advance(59 - 30.6)  # still within the minute the table promises
    _assert_not_claimable(match, alice, bob)
    # A minute and the write's slack after his last request he is away, and the claim holds.
    clock.advance(71 - 59)
    claimed = _api_claim(match, alice)
    assert claimed.status_code == 200
    assert body(claimed)["status"] == "timed_out" and body(claimed)["winner_seat"] == 0


def test_a_player_polling_their_events_cannot_be_claimed_against_within_the_minute(
    match: Match, alice: User, bob: User, clock: Clock
) -> None:
    _read_every_3_seconds(f"{API}/events", bob, clock)
    clock.advance(30.6)
    _assert_not_claimable(match, alice, bob)
    clock.advance(59 - 30.6)
    _assert_not_claimable(match, alice, bob)
    clock.advance(71 - 59)
    assert live_table.claimable(_fresh(match), 0)
    live = live_table.live_state(_fresh(match), 0)
    assert live is not None and live["claim_reason"] == "away"


def test_opening_the_table_page_is_a_sign_of_life_too(
    match: Match, alice: User, bob: User, clock: Clock
) -> None:
    # A browser without JavaScript opens no socket; its page loads count. bob's last sign
    # of life was his move, more than 70 s ago: he is away.
    clock.advance(75)
    assert live_table.claimable(_fresh(match), 0)
    assert signed_in(bob).get(url(match, "table")).status_code == 200
    assert not live_table.claimable(_fresh(match), 0)
    clock.advance(30.6)
    _assert_not_claimable(match, alice, bob)


def test_reads_write_the_sign_of_life_at_most_every_ten_seconds(
    match: Match, bob: User, clock: Clock
) -> None:
    headers = _bearer(bob)

    def last_active() -> datetime | None:
        return Seat.objects.get(match=match, number=1).last_active

    for path in (f"{API}/events", f"{API}/matches/{match.public_id}"):
        clock.advance(presence.SIGN_WRITE_EVERY_SECONDS + 1)
        Client().get(path, headers=headers)
        written = last_active()
        assert written == clock.now
        for _ in range(3):  # a read every 3 seconds changes no row in between
            clock.advance(3)
            Client().get(path, headers=headers)
            assert last_active() == written
