"""Private tables by invitation link: opening one, the first visitor taking the second seat,
everyone after that refused (or watching, if allowed), seat keys, the both-connected rule,
restart by agreement and expiry."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import access, services
from games.live import connection as live_table
from games.live import presence
from games.models import Match, Offer, PrivateTable, Seat
from games.private import tables as private
from games.state_cache import load_state
from ginsite.lib.refusals import Refused

from .conftest import ALICE_KNOCKS, BEA_LOOSE, assert_no_leak, hand, snapshot, stacked, url
from .live_helpers import shown_cards

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
GUEST = BEA_LOOSE  # the second seat's cards in the stacked deck
DECK = stacked(ALICE_KNOCKS, GUEST, "QC", "2D")


def link(table: PrivateTable) -> str:
    return reverse("games:private", args=[table.token])


def join_url(table: PrivateTable) -> str:
    return reverse("games:private_join", args=[table.token])


def hosted_by(user: User | None, **options: object) -> tuple[PrivateTable, Match]:
    options.setdefault("deck", DECK)
    table, match, _key = private.open_table(user, name="Hal" if user is None else "", **options)  # type: ignore[arg-type]
    return table, match


def guest_joins(table: PrivateTable, name: str = "Dora") -> Client:
    client = Client()
    response = client.post(join_url(table), {"name": name})
    assert response.status_code == 302, response.content
    return client


def both_connected(match: Match) -> None:
    for number in (0, 1):
        presence.seat_connected(match.pk, number)


def current(table: PrivateTable) -> Match:
    found = private.current_match(table)
    assert found is not None
    return found


# --- Opening a table --------------------------------------------------------------------------


def test_it_opens_a_table_with_an_unguessable_link_and_a_copy_button(
    alice: User, alice_client: Client
):
    response = alice_client.post(
        reverse("games:private_new"), {"preset": "simple", "target": 50, "allow_spectators": ""}
    )
    table = PrivateTable.objects.get()
    assert response.status_code == 302 and response["Location"] == link(table)
    assert len(table.token) >= 22  # token_urlsafe(16): 128 bits
    match = current(table)
    assert match.kind == Match.Kind.PRIVATE and match.rules["target"] == 50
    assert [s.kind for s in match.seats.all()] == [Seat.Kind.PLAYER, Seat.Kind.GUEST]
    assert match.seats.get(number=0).user == alice and match.seats.get(number=1).is_open
    page = alice_client.get(link(table)).content.decode()
    assert f"http://testserver{link(table)}" in page
    assert "readonly" in page and "data-copy" in page and "Copy link" in page
    assert "has not opened the link yet" in page
    # The page sends the host's seed for the deal at once (docs/fairness.md); the deal waits
    # for the friend's, and the page says why.
    assert 'value="seed"' in page
    services.submit(match, 0, {"type": "seed", "seed": "hosts-seed"}, match.version)
    page = alice_client.get(link(table)).content.decode()
    assert 'name="move"' not in page.split('id="actions"')[1].split("</section>")[0]
    assert "Waiting for your friend to open the invitation link" in page


def test_a_guest_without_an_account_may_host(client: Client):
    form = client.get(reverse("games:private_new")).content.decode()
    assert 'name="name"' in form
    response = client.post(
        reverse("games:private_new"), {"name": "  Hal  ", "preset": "standard", "target": 100}
    )
    table = PrivateTable.objects.get()
    assert response.status_code == 302
    cookie = response.cookies[access.seat_cookie(table)]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    host = current(table).seats.get(number=0)
    assert host.kind == Seat.Kind.GUEST and host.name == "Hal"
    # Only a hash of the key is stored.
    assert host.guest_key_hash == access.hash_key(cookie.value) != cookie.value
    page = client.get(link(table))
    assert page.status_code == 200 and 'id="hand"' in page.content.decode()


def test_it_refuses_a_bad_host_name_or_target(client: Client):
    for data in (
        {"name": "H", "preset": "standard", "target": 100},
        {"name": "x" * 25, "preset": "standard", "target": 100},
        {"name": "Hal", "preset": "standard", "target": 77},
    ):
        assert client.post(reverse("games:private_new"), data).status_code == 400
    assert not PrivateTable.objects.exists() and not Match.objects.exists()


# --- The first visitor, and everyone after -----------------------------------------------------


def test_the_first_visitor_takes_the_second_seat_as_a_guest(alice: User):
    table, match = hosted_by(alice)
    guest = Client()
    page = guest.get(link(table))
    assert page.status_code == 200
    html = page.content.decode()
    assert "alice invites you" in html and 'name="name"' in html
    assert_no_leak(html, hand(ALICE_KNOCKS) + hand(GUEST))
    assert match.seats.get(number=1).is_open, "a GET (a chat app's link preview) takes no seat"

    response = guest.post(join_url(table), {"name": "  Dora  "})
    assert response.status_code == 302 and response["Location"] == link(table)
    cookie = response.cookies[access.seat_cookie(table)]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/"
    seat = match.seats.get(number=1)
    assert (seat.kind, seat.name, seat.user) == (Seat.Kind.GUEST, "Dora", None)
    assert seat.guest_key_hash == access.hash_key(cookie.value)

    # Reopening the link in the same browser: the guest's own table, own hand only.
    html = guest.get(link(table)).content.decode()
    assert 'id="hand"' in html
    assert shown_cards(html, GUEST) == hand(GUEST)
    assert_no_leak(html, hand(ALICE_KNOCKS))


def test_everyone_after_the_first_visitor_sees_the_table_is_full(alice: User):
    table, match = hosted_by(alice)
    guest_joins(table)
    before = list(match.seats.values_list("name", "guest_key_hash"))
    late = Client()
    page = late.get(link(table))
    assert page.status_code == 403
    html = page.content.decode()
    assert "This table is full" in html and "did not allow watchers" in html
    assert_no_leak(html, hand(ALICE_KNOCKS) + hand(GUEST))
    assert late.post(join_url(table), {"name": "Eve"}).status_code == 409
    assert list(match.seats.values_list("name", "guest_key_hash")) == before


def test_another_browser_cannot_take_the_seat_over(alice: User):
    table, match = hosted_by(alice)
    guest = guest_joins(table)
    key = guest.cookies[access.seat_cookie(table)].value
    forged = Client()
    forged_key = key[:-2] + ("AA" if not key.endswith("AA") else "BB")
    forged.cookies[access.seat_cookie(table)] = forged_key
    assert forged.get(link(table)).status_code == 403
    assert forged.get(url(match, "table")).status_code == 404  # never to the secret link
    assert forged.post(url(match, "act"), {"move": "pass", "version": 0}).status_code == 403
    assert snapshot(match) == (0, 0)


def test_a_seat_key_opens_only_its_own_table(alice: User, bob: User):
    table, _match = hosted_by(alice)
    other_table, other_match = hosted_by(bob)
    guest = guest_joins(table)
    guest_joins(other_table, "Olga")
    key = guest.cookies[access.seat_cookie(table)].value
    thief = Client()
    thief.cookies[access.seat_cookie(other_table)] = key  # a real key, for another table
    assert thief.get(link(other_table)).status_code == 403
    caller = access.Caller(None, {access.seat_cookie(other_table): key})
    assert access.at(other_match, caller).seat is None


def test_a_signed_in_visitor_takes_the_seat_with_their_account(alice: User, bob: User):
    table, match = hosted_by(alice)
    bob_client = Client()
    bob_client.force_login(bob)
    assert "You will play as bob" in bob_client.get(link(table)).content.decode()
    assert bob_client.post(join_url(table)).status_code == 302
    seat = match.seats.get(number=1)
    assert (seat.kind, seat.user) == (Seat.Kind.PLAYER, bob)
    # The seat follows the account: another device where bob is signed in.
    other_device = Client()
    other_device.force_login(bob)
    html = other_device.get(link(table)).content.decode()
    assert shown_cards(html, GUEST) == hand(GUEST)


def test_a_bad_guest_name_is_refused_and_the_seat_stays_open(alice: User):
    table, match = hosted_by(alice)
    for name in ("", " x ", "y" * 25, "Bea", "\u200b\u200b\u200b"):
        response = Client().post(join_url(table), {"name": name})
        assert response.status_code == 400
    assert match.seats.get(number=1).is_open


# --- Watchers ---------------------------------------------------------------------------------


def test_watchers_see_neither_hand_when_the_host_allowed_them(alice: User):
    table, _match = hosted_by(alice, allow_spectators=True)
    guest_joins(table)
    watcher = Client()
    response = watcher.get(link(table))
    assert response.status_code == 200
    html = response.content.decode()
    assert "You are watching" in html
    assert shown_cards(html, ALICE_KNOCKS) == [] and shown_cards(html, GUEST) == []
    assert 'name="move"' not in html and "Copy link" not in html


def test_watchers_are_refused_when_the_host_did_not_allow_them(alice: User, carol: User):
    table, match = hosted_by(alice, allow_spectators=False)
    guest_joins(table)
    carol_client = Client()
    carol_client.force_login(carol)
    assert carol_client.get(link(table)).status_code == 403
    assert carol_client.get(url(match, "table")).status_code == 404
    for name in ("act", "offer", "answer", "resign"):
        assert carol_client.post(url(match, name), {"version": 0}).status_code == 403


# --- Playing: both players must be connected -------------------------------------------------


def test_moves_wait_until_both_players_are_connected(alice: User, alice_client: Client):
    table, match = hosted_by(alice)
    guest = guest_joins(table)
    presence.seat_connected(match.pk, 0)
    with pytest.raises(services.NotConnected, match="Dora is not connected"):
        services.submit(match, 0, {"type": "pass"}, 0)
    response = alice_client.post(url(match, "act"), {"move": "pass", "version": 0}, **HTMX)
    assert response.status_code == 409
    assert "Dora is not connected" in response.content.decode()
    assert snapshot(match) == (0, 0)
    page = alice_client.get(link(table)).content.decode()
    assert '<fieldset class="buttons" disabled>' in page
    assert "Dora is not connected. Moves wait until both players are at the table." in page
    assert "Dora: away" in page

    presence.seat_connected(match.pk, 1)
    page = alice_client.get(link(table)).content.decode()
    assert '<fieldset class="buttons">' in page and "Dora: connected" in page
    assert alice_client.post(url(match, "act"), {"move": "pass", "version": 0}).status_code == 302
    # The guest answers over HTTP with their seat key, and no account.
    response = guest.post(url(match, "act"), {"move": "pass", "version": 1}, **HTMX)
    assert response.status_code == 200
    assert snapshot(match) == (2, 2)


def test_a_move_before_the_second_seat_is_taken_says_so(alice: User):
    _table, match = hosted_by(alice)
    presence.seat_connected(match.pk, 0)
    with pytest.raises(services.NotConnected, match="Nobody has taken the second seat"):
        services.submit(match, 0, {"type": "pass"}, 0)


def test_a_guest_cannot_move_for_the_host_nor_resend_a_move(alice: User, alice_client: Client):
    table, match = hosted_by(alice)
    guest = guest_joins(table)
    both_connected(match)
    # Seat 0 is to act; the guest's request is refused by the rules, nothing changes.
    assert guest.post(url(match, "act"), {"move": "pass", "version": 0}).status_code == 422
    assert alice_client.post(url(match, "act"), {"move": "pass", "version": 0}).status_code == 302
    # The same request again is stale.
    again = alice_client.post(url(match, "act"), {"move": "pass", "version": 0}, **HTMX)
    assert again.status_code == 409
    assert snapshot(match) == (1, 1)


def test_the_private_page_never_shows_the_other_hand(alice: User, alice_client: Client):
    table, match = hosted_by(alice)
    guest = guest_joins(table)
    both_connected(match)
    host_page = alice_client.get(link(table)).content.decode()
    guest_page = guest.get(link(table)).content.decode()
    assert_no_leak(host_page, hand(GUEST))
    assert_no_leak(guest_page, hand(ALICE_KNOCKS))
    stock = DECK[21:]
    assert_no_leak(host_page, stock)
    assert_no_leak(guest_page, stock)


# --- Restart by agreement ----------------------------------------------------------------------


def test_a_restart_needs_both_and_keeps_the_guest_at_the_table(alice: User, alice_client: Client):
    table, match = hosted_by(alice)
    guest = guest_joins(table)
    both_connected(match)
    assert alice_client.post(url(match, "act"), {"move": "pass", "version": 0}).status_code == 302
    # Before the guest's seat is taken, no offers; now the host offers a restart.
    response = alice_client.post(url(match, "offer"), {"kind": "restart", "version": 1}, **HTMX)
    assert response.status_code == 200
    offer = Offer.objects.get(match=match)
    match.refresh_from_db()
    assert match.is_active, "an offer alone changes nothing"
    assert "offers to restart" in guest.get(link(table)).content.decode()
    response = guest.post(
        url(match, "answer"), {"offer": offer.pk, "answer": "accept", "version": 1}, **HTMX
    )
    assert response.status_code == 204
    match.refresh_from_db()
    assert match.status == Match.Status.RESTARTED
    new = current(table)
    assert new.pk != match.pk and new.table_id == table.pk and new.version == 0
    assert response["HX-Redirect"] == url(new, "table")
    # The guest's key and name moved with the seat; the link leads to the new match.
    assert new.seats.get(number=1).name == "Dora"
    assert 'id="hand"' in guest.get(url(new, "table")).content.decode()
    assert f"/ws/games/{new.public_id}/" in guest.get(link(table)).content.decode()


def test_a_declined_restart_changes_nothing(alice: User, alice_client: Client):
    table, match = hosted_by(alice)
    guest = guest_joins(table)
    alice_client.post(url(match, "offer"), {"kind": "restart", "version": 0})
    offer = Offer.objects.get(match=match)
    guest.post(url(match, "answer"), {"offer": offer.pk, "answer": "decline", "version": 0})
    match.refresh_from_db()
    assert match.is_active and current(table).pk == match.pk


def test_no_offer_before_the_second_seat_is_taken(alice: User):
    _table, match = hosted_by(alice)
    with pytest.raises(Refused):
        services.make_offer(match, 0, Offer.Kind.RESTART, 0)


def test_the_host_cannot_claim_a_win_while_the_guest_is_away(alice: User):
    table, match = hosted_by(alice)
    guest_joins(table)
    both_connected(match)
    services.submit(match, 0, {"type": "pass"}, 0)  # now the guest is to act
    Seat.objects.filter(match=match, number=1).update(
        connections=0, last_seen=timezone.now() - timedelta(hours=1)
    )
    assert load_state(match).to_act == 1
    assert not live_table.claimable(match, 0)


# --- Expiry -----------------------------------------------------------------------------------


def _age(table: PrivateTable, days: float) -> None:
    """Move every time of the table ``days`` back."""
    then = timezone.now() - timedelta(days=days)
    PrivateTable.objects.filter(pk=table.pk).update(created_at=then)
    Match.objects.filter(table=table).update(updated_at=then, created_at=then)
    Seat.objects.filter(match__table=table).update(last_seen=then)


def test_expire_tables_deletes_tables_idle_for_a_week(alice: User, bob: User, capsys):
    idle, idle_match = hosted_by(alice)
    guest = guest_joins(idle)
    busy, _busy_match = hosted_by(bob)
    fresh_heartbeat, _ = hosted_by(bob)
    _age(idle, 7.5)
    _age(busy, 6)
    _age(fresh_heartbeat, 30)
    presence.seat_connected(current(fresh_heartbeat).pk, 0)  # someone has the page open now

    call_command("expire_tables")
    assert "1 private table(s) expired." in capsys.readouterr().out

    assert not Match.objects.filter(pk=idle_match.pk).exists()
    assert not Seat.objects.filter(match_id=idle_match.pk).exists()
    idle.refresh_from_db()
    assert idle.expired_at is not None
    assert current(busy) and current(fresh_heartbeat)
    # The link explains what happened, to the players and to anyone else.
    for client in (guest, Client()):
        response = client.get(link(idle))
        assert response.status_code == 410
        assert "This table has expired" in response.content.decode()
    assert guest.post(join_url(idle), {"name": "Late"}).status_code == 410
    assert Client().get(reverse("games:private", args=["no-such-token"])).status_code == 404


def test_expire_tables_counts_every_match_of_a_restarted_table(alice: User, alice_client):
    table, match = hosted_by(alice)
    guest = guest_joins(table)
    alice_client.post(url(match, "offer"), {"kind": "restart", "version": 0})
    offer = Offer.objects.get(match=match)
    guest.post(url(match, "answer"), {"offer": offer.pk, "answer": "accept", "version": 0})
    assert Match.objects.filter(table=table).count() == 2
    _age(table, 8)
    call_command("expire_tables", "--days", "7")
    assert not Match.objects.filter(table=table).exists()
