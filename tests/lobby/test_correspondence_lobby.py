"""Correspondence in the lobby (issue 26, part 3): challenges, seeks and quick pairing may
choose 1, 3 or 7 days per move; anything else is refused and changes nothing (HTML and API);
a correspondence challenge needs nobody online and waits days; a player in a live match may
play correspondence matches beside it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match
from ginsite.lib.refusals import Conflict, Refused
from lobby import presence
from lobby import services as lobby_services
from lobby.models import Challenge, PoolEntry, Presence, Seek
from lobby.pool import service as pool_service
from tests.api.conftest import API
from tests.games.live_helpers import lobby_match

from .correspondence_helpers import Clock
from .lobby_helpers import HTMX, online

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

BAD_DAYS = ["2", "0", "-1", "14", "3.5", "three", "1; DROP"]


def _nothing_made() -> None:
    assert not Challenge.objects.exists()
    assert not Seek.objects.exists()
    assert not PoolEntry.objects.exists()
    assert not Match.objects.exists()


def _page(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _api(user: User) -> dict[str, str]:
    from lobby.accounts import tokens

    return {"Authorization": f"Bearer {tokens.create(user, 'app')[1]}"}


@pytest.mark.parametrize("days", BAD_DAYS)
def test_the_lobby_forms_refuse_days_outside_1_3_7(alice: User, bob: User, days: str) -> None:
    online(alice, bob)
    client = _page(alice)
    posts: list[tuple[str, dict[str, Any]]] = [
        ("lobby:challenge", {"to": "bob", "preset": "standard", "target": "100"}),
        ("lobby:post_seek", {"preset": "standard", "target": "100"}),
        ("lobby:join_pool", {"tile": "standard:100"}),
    ]
    for name, data in posts:
        for extra in ({}, HTMX):
            answer = client.post(reverse(name), {**data, "days": days}, **extra)
            assert answer.status_code == 400, (name, answer.status_code)
            assert "Days per move must be 1, 3 or 7" in answer.content.decode()
    _nothing_made()


@pytest.mark.parametrize("days", [2, 0, 30, "3", 3.5, True])
def test_the_api_refuses_days_outside_1_3_7(alice: User, bob: User, days: Any) -> None:
    online(alice, bob)
    headers = _api(alice)
    for path, body in (
        ("/challenges", {"to": "bob"}),
        ("/seeks", {}),
        ("/pool", {}),
    ):
        answer = Client().post(
            API + path, {**body, "days_per_move": days}, "application/json", headers=headers
        )
        assert answer.status_code in (400, 422), (path, answer.status_code)
        assert "days_per_move" in answer.content.decode()
    _nothing_made()


def test_the_services_refuse_days_outside_1_3_7_too(alice: User, bob: User) -> None:
    online(alice, bob)
    for days in (2, "x", 8, False):
        with pytest.raises(Refused):
            lobby_services.challenge(alice, bob, "standard", 100, days_per_move=days)
        with pytest.raises(Refused):
            lobby_services.post_seek(alice, "standard", 100, days_per_move=days)
        with pytest.raises(Refused):
            pool_service.join_pool(alice, "standard", 100, days_per_move=days)
    _nothing_made()


def test_a_correspondence_challenge_needs_nobody_online_and_waits_days(
    clock: Clock, alice: User, bob: User
) -> None:
    online(alice)  # bob is nowhere: a live challenge is refused, a correspondence one is not
    with pytest.raises(Conflict):
        lobby_services.challenge(alice, bob, "standard", 100)
    made = lobby_services.challenge(alice, bob, "standard", 100, days_per_move=3)
    assert made.expires_at - clock.now == lobby_services.CORRESPONDENCE_CHALLENGE_TTL
    # alice leaves; hours later the sweep has expired every live challenge, not this one.
    Presence.objects.filter(user=alice).delete()
    clock.advance(hours=30)
    presence.sweep(force=True)
    made.refresh_from_db()
    assert made.status == Challenge.Status.OPEN
    # bob comes by: he sees it in his lobby, and it starts a correspondence match.
    page = _page(bob).get(reverse("lobby:lobby")).content.decode()
    assert "Standard to 100, 3 days per move" in page and "Open for an answer: 1 day" in page
    match = lobby_services.accept_challenge(made, bob)
    assert match.days_per_move == 3
    # Days later, unanswered, it would have expired.
    again = lobby_services.challenge(alice, bob, "classic", 50, days_per_move=1)
    clock.advance(days=3, seconds=1)
    presence.sweep(force=True)
    again.refresh_from_db()
    assert again.status == Challenge.Status.EXPIRED


def test_a_player_in_a_live_match_may_play_correspondence_beside_it(
    alice: User, bob: User, carol: User, django_user_model: type[User]
) -> None:
    dave = django_user_model.objects.create_user("dave", password="x" * 12)
    online(alice, bob, carol, dave)
    live = lobby_match(alice, bob)
    # A second live match is refused, as before...
    with pytest.raises(Conflict):
        lobby_services.challenge(alice, carol, "standard", 100)
    # ...a correspondence match is not, either way round, and the live one goes on.
    made = lobby_services.challenge(alice, carol, "standard", 100, days_per_move=7)
    first = lobby_services.accept_challenge(made, carol)
    made = lobby_services.challenge(carol, bob, "standard", 100, days_per_move=1)
    second = lobby_services.accept_challenge(made, bob)
    assert first.days_per_move == 7 and second.days_per_move == 1
    live.refresh_from_db()
    assert live.is_active
    assert presence.busy_user_ids() == {alice.pk, bob.pk}  # carol is free for a live one
    # A live match starting withdraws the players' live seeks, not their correspondence ones.
    seek = lobby_services.post_seek(carol, "standard", 100, days_per_move=3)
    pending = lobby_services.challenge(carol, alice, "classic", 100, days_per_move=3)
    lobby_services.accept_challenge(lobby_services.challenge(carol, dave, "standard", 50), dave)
    seek.refresh_from_db()
    pending.refresh_from_db()
    assert (seek.status, pending.status) == (Seek.Status.OPEN, Challenge.Status.OPEN)
    # Both in live matches now, bob posts a correspondence seek and carol takes it.
    with pytest.raises(Conflict):
        lobby_services.post_seek(bob, "simple", 100)
    offered = lobby_services.post_seek(bob, "simple", 100, days_per_move=7)
    assert lobby_services.accept_seek(offered, carol).days_per_move == 7


def test_a_correspondence_seek_stays_while_its_poster_is_away(
    clock: Clock, alice: User, bob: User
) -> None:
    online(alice, bob)
    live = lobby_services.post_seek(bob, "standard", 100)
    lobby_services.cancel_seek(live, bob)
    seek = lobby_services.post_seek(alice, "classic", 150, rated=True, days_per_move=3)
    Presence.objects.filter(user=alice).delete()  # alice leaves the lobby
    clock.advance(hours=5)
    presence.sweep(force=True)
    seek.refresh_from_db()
    assert seek.status == Seek.Status.OPEN
    page = _page(bob).get(reverse("lobby:lobby")).content.decode()
    assert "Classic to 150, 3 days per move, rated" in page
    listed = Client().get(API + "/seeks", headers=_api(bob)).json()
    assert [(s["id"], s["days_per_move"]) for s in listed] == [(seek.pk, 3)]
    match = lobby_services.accept_seek(seek, bob)
    assert (match.days_per_move, match.rules["name"]) == (3, "classic")
    # After a week unanswered, a correspondence seek expires.
    other = lobby_services.post_seek(bob, "standard", 100, days_per_move=1)
    clock.advance(days=7, seconds=1)
    presence.sweep(force=True)
    other.refresh_from_db()
    assert other.status == Seek.Status.EXPIRED


def test_quick_pairing_pairs_only_the_same_days_per_move(
    alice: User, bob: User, carol: User
) -> None:
    online(alice, bob, carol)
    lobby_match(alice, bob)  # alice and bob are in a live match: correspondence is open to them
    first = pool_service.join_pool(alice, "standard", 100, days_per_move=3)
    other = pool_service.join_pool(carol, "standard", 100, days_per_move=7)
    assert (first.status, other.status) == ("waiting", "waiting")
    paired = pool_service.join_pool(bob, "standard", 100, days_per_move=3)
    assert paired.status == "paired" and paired.match is not None
    assert paired.match.days_per_move == 3
    assert {s.user_id for s in paired.match.seats.all()} == {alice.pk, bob.pk}
    other.refresh_from_db()
    assert other.status == "waiting"
    with pytest.raises(Conflict):
        pool_service.join_pool(bob, "standard", 100)  # live: he is in one
    answer = Client().get(API + "/pool", headers=_api(alice)).json()
    assert (answer["status"], answer["days_per_move"]) == ("paired", 3)


def test_a_players_page_challenges_them_by_correspondence_while_they_are_away(
    alice: User, bob: User
) -> None:
    client = _page(alice)
    page = client.get(reverse("lobby:player", args=["bob"])).content.decode()
    assert '<select name="days"' in page and '<option value="3">3 days per move</option>' in page
    answer = client.post(
        reverse("lobby:challenge"),
        {"to": "bob", "preset": "simple", "target": "50", "days": "3"},
        follow=True,
    )
    assert answer.status_code == 200
    assert "Challenge sent to bob." in answer.content.decode()
    made = Challenge.objects.get()
    assert (made.preset, made.target, made.days_per_move) == ("simple", 50, 3)


def test_a_counter_proposal_keeps_the_days_and_waits_for_an_answer(
    clock: Clock, alice: User, bob: User
) -> None:
    online(alice)
    made = lobby_services.challenge(alice, bob, "standard", 100, days_per_move=7)
    counter = lobby_services.decline_challenge(
        made, bob, "rules", lobby_services.Proposal("classic", None)
    )
    assert counter is not None and counter.days_per_move == 7
    Presence.objects.filter(user=bob).delete()  # bob goes; his proposal stays open
    page = _page(alice).get(reverse("lobby:lobby")).content.decode()
    assert "bob</strong> would play: Classic to 100, 7 days per move." in page
    assert "Open for an answer: 3 days left." in page
    match = lobby_services.accept_counter(made, alice)
    assert (match.days_per_move, match.rules["name"]) == (7, "classic")
