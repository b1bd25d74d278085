"""The door that says who is asking (``games.access``): a seat by account or by the key a
browser holds for that match only, the owner of a pass-and-play match, a watcher where
watching is allowed, or nobody; and what finding out costs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import access
from games.bea import guests
from games.local import play as local
from games.models import Match
from games.private import tables as private

from .conftest import ALICE_KNOCKS, BEA_LOOSE, stacked, start
from .live_helpers import lobby_match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

DECK = stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D")
NOBODY = AnonymousUser()


def who(match: Match, user: object = NOBODY, **cookies: str) -> access.Asker:
    asker = access.find(match.public_id, access.Caller(user, cookies))
    assert asker is not None
    return asker


def test_it_knows_a_player_by_account_and_a_watcher_where_watching_is_allowed(
    alice: User, bob: User, carol: User
):
    match = lobby_match(alice, bob, deck=DECK)
    assert (who(match, alice).seat, who(match, bob).seat) == (0, 1)
    assert who(match, alice).by_key == ""
    carol_there = who(match, carol)
    assert carol_there.seat is None and carol_there.watcher and not carol_there.nobody
    assert who(match).nobody  # a lobby match is for signed-in watchers
    assert who(start(alice, DECK), carol).nobody  # a match against Bea is for its player


_signed = access.key_cookie_value


def test_a_guest_is_known_by_the_key_for_that_match_only(alice: User):
    key = access.new_key()
    bea = guests.start(key, deck=DECK)
    table, hosted, host_key = private.open_table(None, name="Hal", deck=DECK)
    assert host_key is not None
    assert who(bea, gin_guest=_signed(access.GUEST_COOKIE, key)).seat == 0
    assert who(hosted, **{access.seat_cookie(table): host_key}).seat == 0
    # A key opens only the match it was made for, under its own cookie.
    assert who(hosted, gin_guest=_signed(access.GUEST_COOKIE, key)).nobody
    # The key itself, unsigned, is not one the site issued: it opens nothing.
    assert who(bea, gin_guest=key).nobody
    assert who(bea, **{access.seat_cookie(table): host_key}).nobody
    other_table, other, _ = private.open_table(alice, deck=DECK)
    assert who(other, **{access.seat_cookie(other_table): host_key}).nobody
    # Nothing longer than a key of ours is even hashed.
    assert who(bea, gin_guest=_signed(access.GUEST_COOKIE, key + "x" * access.MAX_KEY_CHARS)).nobody


def test_the_owner_of_a_pass_and_play_match_is_the_account_or_the_browser_holding_its_key(
    alice: User, bob: User
):
    key = access.new_key()
    on_device = local.start(None, key, "Ann", "Ben", deck=DECK)
    on_account = local.start(alice, "", "Ann", "Ben", deck=DECK)
    assert who(on_device, gin_local=_signed(access.OWNER_COOKIE, key)).owner
    assert who(on_device, gin_local=key).nobody
    assert who(on_device, gin_local=_signed(access.OWNER_COOKIE, access.new_key())).nobody
    assert who(on_account, alice).owner and who(on_account, alice).seat is None
    assert who(on_account, bob).nobody
    # The owner reads the shared screen's pages, never a table socket or the API.
    assert not who(on_account, alice).at_table


def test_there_is_nobody_to_find_at_no_match(alice: User):
    assert access.find("no-such-match", access.of_account(alice)) is None
    assert access.held_seat(alice, "no-such-match") is None


def test_it_finds_who_asks_in_two_queries_and_a_movers_seat_in_one(alice: User, bob: User):
    match = lobby_match(alice, bob, deck=DECK)
    key = access.new_key()
    bea = guests.start(key, deck=DECK)
    table, hosted, host_key = private.open_table(None, name="Hal", deck=DECK)
    assert host_key is not None
    askers = [
        (match, access.of_account(bob)),
        (bea, access.Caller(NOBODY, {"gin_guest": _signed(access.GUEST_COOKIE, key)})),
        (hosted, access.Caller(NOBODY, {access.seat_cookie(table): host_key})),
    ]
    for asked, caller in askers:
        with CaptureQueriesContext(connection) as queries:
            asker = access.find(asked.public_id, caller)
            assert asker is not None and asker.seat is not None
            # The names a page shows come with the seats: no query per player.
            names = [seat.display_name for seat in asker.match.seats.all()]
        assert len(queries) == 2, [q["sql"] for q in queries]
        assert all(names)
    with CaptureQueriesContext(connection) as queries:
        held = access.held_seat(bob, match.public_id)
    assert held is not None and held.seat == 1 and len(queries) == 1
