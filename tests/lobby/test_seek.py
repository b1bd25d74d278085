"""Seeks: "anyone for a game?" The first player to accept gets the match, once."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Seat
from ginsite.lib import refusals
from lobby import presence, services
from lobby.models import Block, Seek
from lobby.services import pairing
from tests.lobby.lobby_helpers import HTMX, go_quiet, lobby_matches, online

pytestmark = pytest.mark.django_db


@pytest.fixture
def here(alice: User, bob: User, carol: User) -> None:
    online(alice, bob, carol)


def _seek(user: User) -> Seek:
    return services.post_seek(user, "standard", 100)


def test_it_posts_a_seek_everyone_sees(client: Client, alice: User, bob: User, here: None) -> None:
    client.force_login(alice)
    response = client.post("/lobby/seeks/", {"preset": "simple", "target": "50"})
    assert response.status_code == 302
    seek = Seek.objects.get()
    assert (seek.poster, seek.preset, seek.target, seek.status) == (alice, "simple", 50, "open")
    client.force_login(bob)
    html = client.get("/lobby/").content.decode()
    assert "is looking for a game: Simple to 50." in html
    assert f"/lobby/seeks/{seek.pk}/accept" in html


def test_it_allows_one_open_seek_per_player(client: Client, alice: User, here: None) -> None:
    _seek(alice)
    client.force_login(alice)
    response = client.post("/lobby/seeks/", {"preset": "classic", "target": "150"}, **HTMX)
    assert response.status_code == 409
    assert "You already have an open seek." in response.content.decode()
    assert Seek.objects.count() == 1


@pytest.mark.parametrize(("preset", "target"), [("blitz", "100"), ("standard", "0"), ("", "x")])
def test_it_refuses_bad_rules(
    client: Client, alice: User, here: None, preset: str, target: str
) -> None:
    client.force_login(alice)
    response = client.post("/lobby/seeks/", {"preset": preset, "target": target})
    assert response.status_code == 400
    assert not Seek.objects.exists()


def test_it_gives_the_match_to_the_first_accepter(
    client: Client, alice: User, bob: User, here: None
) -> None:
    seek = _seek(alice)
    client.force_login(bob)
    response = client.post(f"/lobby/seeks/{seek.pk}/accept")
    (match,) = lobby_matches()
    assert response.status_code == 302
    assert response["Location"] == f"/games/{match.public_id}/"
    assert [s.user for s in match.seats.order_by("number")] == [alice, bob]
    assert all(s.kind == Seat.Kind.PLAYER for s in match.seats.all())
    seek.refresh_from_db()
    assert (seek.status, seek.accepted_by, seek.match) == ("accepted", bob, match)


def test_it_tells_the_second_accepter_it_is_gone(
    client: Client, alice: User, bob: User, carol: User, here: None
) -> None:
    seek = _seek(alice)
    services.accept_seek(seek, bob)
    client.force_login(carol)
    response = client.post(f"/lobby/seeks/{seek.pk}/accept", **HTMX)
    assert response.status_code == 409
    assert "Someone else got there first" in response.content.decode()
    assert len(lobby_matches()) == 1


def test_it_lets_only_one_of_two_racing_accepts_win(
    alice: User, bob: User, carol: User, here: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both accepters loaded the seek while it was open; the second one's early check is made
    # to see that stale row (and nobody busy), so only the conditional update in the
    # transaction can stop it.
    seek = _seek(alice)
    stale = Seek.objects.get(pk=seek.pk)
    services.accept_seek(seek, bob)
    monkeypatch.setattr(Seek, "refresh_from_db", lambda self, *a, **k: None)
    monkeypatch.setattr(pairing, "busy_user_ids", lambda now=None, among=None: set())
    with pytest.raises(refusals.Conflict, match="Someone else got there first"):
        services.accept_seek(stale, carol)
    assert len(lobby_matches()) == 1


def test_it_refuses_accepting_your_own_seek(client: Client, alice: User, here: None) -> None:
    seek = _seek(alice)
    client.force_login(alice)
    response = client.post(f"/lobby/seeks/{seek.pk}/accept")
    assert response.status_code == 400
    assert "That is your own seek." in response.content.decode()
    assert not lobby_matches()


def test_it_refuses_accepting_a_blocked_players_seek(
    client: Client, alice: User, bob: User, here: None
) -> None:
    seek = _seek(alice)
    Block.objects.create(blocker=alice, blocked=bob)
    client.force_login(bob)
    assert "is looking for a game" not in client.get("/lobby/").content.decode()
    response = client.post(f"/lobby/seeks/{seek.pk}/accept")
    # As if the seek were gone: the answer does not reveal the block.
    assert response.status_code == 409
    assert "that seek is no longer open" in response.content.decode()
    client.force_login(alice)
    Seek.objects.filter(pk=seek.pk).update(poster=bob)
    assert client.post(f"/lobby/seeks/{seek.pk}/accept").status_code == 403
    assert not lobby_matches()


def test_it_cancels(client: Client, alice: User, bob: User, here: None) -> None:
    seek = _seek(alice)
    client.force_login(alice)
    response = client.post(f"/lobby/seeks/{seek.pk}/cancel", **HTMX)
    assert response.status_code == 200
    assert "Seek cancelled." in response.content.decode()
    seek.refresh_from_db()
    assert seek.status == Seek.Status.CANCELLED
    client.force_login(bob)
    assert client.post(f"/lobby/seeks/{seek.pk}/accept").status_code == 409


def test_it_refuses_cancelling_someone_elses_seek(
    client: Client, alice: User, bob: User, here: None
) -> None:
    seek = _seek(alice)
    client.force_login(bob)
    response = client.post(f"/lobby/seeks/{seek.pk}/cancel")
    assert response.status_code == 403
    seek.refresh_from_db()
    assert seek.status == Seek.Status.OPEN


def test_it_answers_404_for_an_unknown_seek(client: Client, bob: User, here: None) -> None:
    client.force_login(bob)
    assert client.post("/lobby/seeks/424242/accept").status_code == 404


def test_it_expires_the_seek_of_a_player_who_left(alice: User, bob: User, here: None) -> None:
    seek = _seek(alice)
    go_quiet(alice)
    presence.sweep(force=True)
    seek.refresh_from_db()
    assert seek.status == Seek.Status.EXPIRED
