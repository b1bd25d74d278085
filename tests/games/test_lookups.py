"""The hot path's SQL written once (games.lookups, lobby.accounts.tokens) gives what the querysets
it replaces gave: the same rows, field for field, with the same related objects at hand."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Model, Prefetch, prefetch_related_objects
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import lookups, services, state_cache
from games.engine import legal_actions
from games.models import Action, Announcement, Match, Offer, seats_with_players
from games.state_cache import load_state
from lobby.accounts import tokens
from lobby.models import ApiToken
from tests.seeds import deal

from .live_helpers import lobby_match

pytestmark = pytest.mark.django_db(transaction=True)


def fields(obj: Model) -> dict[str, Any]:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_the_token_lookup_brings_the_account_and_its_profile(alice, bob):
    token, secret = tokens.create(alice, "phone")
    found = tokens.authenticate(secret)
    orm = ApiToken.objects.select_related("user", "user__profile").get(pk=token.pk)
    assert found is not None
    assert fields(found) == {**fields(orm), "last_used_at": found.last_used_at}
    with CaptureQueriesContext(connection) as read:
        assert fields(found.user) == fields(orm.user)
        assert found.user.profile.display_name == orm.user.profile.display_name
        assert found.user.profile.user is found.user
    assert len(read) == 0


def test_no_token_for_a_wrong_secret_or_a_deactivated_account(alice):
    _, secret = tokens.create(alice, "phone")
    assert tokens.authenticate(secret[:-1] + ("A" if secret[-1] != "A" else "B")) is None
    alice.is_active = False
    alice.save()
    assert tokens.authenticate(secret) is None


def test_the_movers_seat_comes_with_its_match(alice, bob, carol):
    match = lobby_match(alice, bob)
    seat = lookups.held_seat(match.public_id, bob.pk)
    assert seat is not None and seat.number == 1
    with CaptureQueriesContext(connection) as read:
        assert fields(seat.match) == fields(Match.objects.get(pk=match.pk))
    assert len(read) == 1  # the comparison's own query: the seat's match was at hand
    assert lookups.held_seat(match.public_id, carol.pk) is None
    assert lookups.held_seat("no-such-match", bob.pk) is None


def test_one_player_holding_both_seats_moves_from_the_first(alice):
    match = lobby_match(alice, alice)
    seat = lookups.held_seat(match.public_id, alice.pk)
    assert seat is not None and seat.number == 0


def test_the_locked_match_has_its_seats_and_offers(alice, bob):
    match = lobby_match(alice, bob)
    services.make_offer(match, 0, Offer.Kind.RESTART, match.version)
    with transaction.atomic():
        locked = lookups.locked_match(match.pk, move=True)
        orm = Match.objects.get(pk=match.pk)
        newest_first = Offer.objects.order_by("-created_at")
        prefetch_related_objects(
            [orm], "seats", Prefetch("offers", newest_first, to_attr=lookups.OFFERS_READ)
        )
    assert fields(locked) == fields(orm)
    with CaptureQueriesContext(connection) as read:
        seats = list(locked.seats.all())
        offers = getattr(locked, lookups.OFFERS_READ)
        assert all(seat.match is locked for seat in seats)
    assert len(read) == 0
    assert [fields(s) for s in seats] == [fields(s) for s in orm.seats.all()]
    assert [fields(o) for o in offers] == [fields(o) for o in getattr(orm, lookups.OFFERS_READ)]
    assert offers[0].kind == Offer.Kind.RESTART
    assert getattr(locked, lookups.WAITING_READ) is False


def test_a_match_locked_for_a_move_says_whether_an_announcement_waits(alice, bob, carol):
    """The outbox's order rests on it: a move behind an undelivered announcement waits too."""
    match, other = lobby_match(alice, bob), lobby_match(carol, carol)
    Announcement.objects.create(match=match, change={})
    Announcement.objects.create(match=other, change={}, delivered_at=timezone.now())
    with transaction.atomic():
        by_pk = lookups.locked_match(match.pk, move=True)
        by_id = lookups.locked_match_at(match.public_id, move=True)
        delivered = lookups.locked_match_at(other.public_id, move=True)
    assert getattr(by_pk, lookups.WAITING_READ) is True
    assert by_id is not None and getattr(by_id, lookups.WAITING_READ) is True
    assert delivered is not None and getattr(delivered, lookups.WAITING_READ) is False
    assert [s.number for s in by_id.seats.all()] == [0, 1]


def test_a_table_socket_reads_the_match_with_its_players_and_offers_at_once(alice, bob):
    match = lobby_match(alice, bob)
    services.make_offer(match, 0, Offer.Kind.RESTART, match.version)
    with CaptureQueriesContext(connection) as batch:
        shown = lookups.match_to_show(match.pk)
    assert shown is not None
    # One round trip on PostgreSQL: one statement holding the three (ginsite.lib.rows.fetch_sets).
    assert len(batch) == (1 if connection.vendor == "postgresql" else 3)
    orm = Match.objects.get(pk=match.pk)
    newest_first = Offer.objects.order_by("-created_at")
    prefetch_related_objects(
        [orm], seats_with_players(), Prefetch("offers", newest_first, to_attr=lookups.OFFERS_READ)
    )
    assert fields(shown) == fields(orm)
    with CaptureQueriesContext(connection) as read:
        seats = list(shown.seats.all())
        names = [s.user.profile.display_name for s in seats]
        offers = getattr(shown, lookups.OFFERS_READ)
    assert len(read) == 0
    assert [fields(s) for s in seats] == [fields(s) for s in orm.seats.all()]
    assert names == [s.user.profile.display_name for s in orm.seats.all()]
    assert [fields(o) for o in offers] == [fields(o) for o in getattr(orm, lookups.OFFERS_READ)]
    assert lookups.match_to_show(10**9) is None


def test_a_match_that_is_gone_is_not_found(alice, bob):
    with transaction.atomic(), pytest.raises(Match.DoesNotExist):
        lookups.locked_match(10**9)


@pytest.mark.usefixtures("postgresql_only")
def test_locking_outside_a_transaction_is_refused(alice, bob):
    match = lobby_match(alice, bob)
    with pytest.raises(TransactionManagementError):
        lookups.locked_match(match.pk)


def test_the_answers_seats_bring_names_and_no_account_for_bea(alice):
    match = services.start_bea_match(alice, "standard", 100, "easy")
    mine, orm = Match.objects.get(pk=match.pk), Match.objects.get(pk=match.pk)
    lookups.prefetch_players(mine)
    prefetch_related_objects([orm], seats_with_players())
    with CaptureQueriesContext(connection) as read:
        got = [
            (fields(s), s.user and fields(s.user), s.user and s.user.profile.display_name)
            for s in mine.seats.all()
        ]
        assert [s.user for s in mine.seats.all()][1] is None
    assert len(read) == 0
    assert got == [
        (fields(s), s.user and fields(s.user), s.user and s.user.profile.display_name)
        for s in orm.seats.all()
    ]


def test_a_move_stores_its_action_and_the_rows_new_summary(alice, bob):
    match = lobby_match(alice, bob)
    deal(match)
    before = Match.objects.get(pk=match.pk)
    first = load_state(match).to_act
    state = services.submit(match, first, {"type": "pass"}, match.version)
    stored = Match.objects.get(pk=match.pk)
    assert stored.version == state.version == before.version + 1
    assert stored.updated_at > before.updated_at and stored.moved_at is not None
    assert fields(stored) == {**fields(before), **{n: fields(stored)[n] for n in _CHANGED}}
    assert fields(match) == fields(stored)  # the caller's instance is brought up to date
    action = stored.actions.get(seq=state.version)
    assert (action.seat, action.payload) == (first, {"type": "pass"})
    assert action.created_at is not None


_CHANGED = (
    "version",
    "scores",
    "status",
    "winner_seat",
    "finished_at",
    "updated_at",
    "moved_at",
    "turn_began_at",  # the pass handed the turn over
)


def _play(match: Match, moves: int) -> None:
    for _ in range(moves):
        state = load_state(match)
        seat = state.to_act
        services.submit(match, seat, legal_actions(state, seat)[0], match.version)


def test_a_state_cached_before_the_other_players_moves_catches_up_with_them(alice, bob):
    """Bob's moves are made in another process: this one's cached state is some versions
    behind the row. Brought up to date with the actions since, it is the position a replay
    from the first deal gives, in one statement; a state ahead of the row the caller holds
    is never used for it."""
    match = lobby_match(alice, bob)
    deal(match)
    _play(match, 2)
    behind = load_state(match)
    _play(match, 4)
    state_cache.remember(match, behind)  # what this process last saw
    row = Match.objects.get(pk=match.pk)
    # The actions it saw are not read again: the first of them spoiled changes nothing.
    first = Action.objects.get(match=match, seq=1)
    Action.objects.filter(pk=first.pk).update(payload={"type": "spoiled"})
    with CaptureQueriesContext(connection) as read:
        caught_up = load_state(row)
    assert len(read) == 1
    Action.objects.filter(pk=first.pk).update(payload=first.payload)
    state_cache.forget_all()
    replayed = load_state(Match.objects.get(pk=match.pk))
    assert caught_up == replayed and caught_up.version == behind.version + 4

    ahead = load_state(row)
    old_row = Match.objects.get(pk=match.pk)
    old_row.version = behind.version  # read before the last four moves
    assert load_state(old_row) == behind
    assert load_state(row) == ahead
