"""Challenges: send, accept, decline with a reason, cancel, expire; and every refusal."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Match, Seat
from games.services import SeatSpec, create_match, ruleset
from ginsite.lib import refusals
from lobby import presence, services
from lobby.models import Block, Challenge
from tests.lobby.lobby_helpers import HTMX, age_challenge, go_quiet, lobby_matches, online

pytestmark = pytest.mark.django_db


@pytest.fixture
def here(alice: User, bob: User, carol: User) -> None:
    online(alice, bob, carol)


def _send(client: Client, to: str, preset: str = "standard", target: str = "100", **extra):  # type: ignore[no-untyped-def]
    return client.post(
        "/lobby/challenges/", {"to": to, "preset": preset, "target": target}, **extra
    )


def _challenge(alice: User, bob: User) -> Challenge:
    return services.challenge(alice, bob, "standard", 100)


# --- Sending ----------------------------------------------------------------------------------


def test_it_sends_a_challenge(client: Client, alice: User, bob: User, here: None) -> None:
    client.force_login(alice)
    response = _send(client, "bob", "classic", "250")
    assert response.status_code == 302
    assert response["Location"] == "/lobby/"
    made = Challenge.objects.get()
    assert (made.challenger, made.challenged, made.preset, made.target) == (
        alice,
        bob,
        "classic",
        250,
    )
    assert made.status == Challenge.Status.OPEN


def test_it_answers_htmx_with_the_regions(client: Client, alice: User, here: None) -> None:
    client.force_login(alice)
    response = _send(client, "bob", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="lobby-challenges"' in html
    assert 'hx-swap-oob="true"' in html
    assert "Challenge sent to bob." in html


def test_it_shows_the_challenged_player_the_challenge(
    client: Client, alice: User, bob: User, here: None
) -> None:
    _challenge(alice, bob)
    client.force_login(bob)
    html = client.get("/lobby/").content.decode()
    assert "challenges you" in html
    assert "/accept" in html and 'name="reason"' in html


@pytest.mark.parametrize(
    ("preset", "target", "message"),
    [
        ("turbo", "100", "Unknown rules preset."),
        ("standard", "99", "The target must be one of 50, 100, 150 or 250."),
        ("standard", "lots", "The target must be one of 50, 100, 150 or 250."),
        ("", "", "Unknown rules preset."),
    ],
)
def test_it_refuses_bad_rules(
    client: Client, alice: User, here: None, preset: str, target: str, message: str
) -> None:
    client.force_login(alice)
    response = _send(client, "bob", preset, target)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Challenge.objects.exists()


def test_it_refuses_an_unknown_player(client: Client, alice: User, here: None) -> None:
    client.force_login(alice)
    response = _send(client, "nobody", **HTMX)
    # As the API answers it: nobody of that name to challenge.
    assert response.status_code == 404
    assert "There is no player of that name." in response.content.decode()
    assert not Challenge.objects.exists()


def test_it_refuses_challenging_yourself(client: Client, alice: User, here: None) -> None:
    client.force_login(alice)
    response = _send(client, "alice")
    assert response.status_code == 400
    assert "You cannot challenge yourself." in response.content.decode()
    assert not Challenge.objects.exists()


def test_it_refuses_a_duplicate_open_challenge(
    client: Client, alice: User, bob: User, here: None
) -> None:
    _challenge(alice, bob)
    client.force_login(alice)
    response = _send(client, "bob")
    assert response.status_code == 409
    assert "You have already challenged bob." in response.content.decode()
    assert Challenge.objects.count() == 1


def test_it_allows_a_new_challenge_once_the_last_was_answered(
    alice: User, bob: User, here: None
) -> None:
    services.cancel_challenge(_challenge(alice, bob), alice)
    _challenge(alice, bob)
    assert Challenge.objects.filter(status=Challenge.Status.OPEN).count() == 1


def test_it_refuses_a_challenge_from_a_blocked_player(
    client: Client, alice: User, bob: User, here: None
) -> None:
    Block.objects.create(blocker=bob, blocked=alice)
    client.force_login(alice)
    response = _send(client, "bob")
    # As if bob were away: the answer does not reveal the block.
    assert response.status_code == 409
    assert "bob is not in the lobby right now." in response.content.decode()
    assert not Challenge.objects.exists()


def test_it_refuses_challenging_someone_you_blocked(alice: User, bob: User, here: None) -> None:
    Block.objects.create(blocker=alice, blocked=bob)
    with pytest.raises(refusals.NotAllowed, match="You have blocked bob"):
        _challenge(alice, bob)


def test_it_refuses_a_player_who_is_not_in_the_lobby(alice: User, bob: User) -> None:
    online(alice)
    with pytest.raises(refusals.Conflict, match="bob is not in the lobby"):
        _challenge(alice, bob)


def _lobby_match(a: User, b: User) -> Match:
    return create_match(
        Match.Kind.LOBBY,
        ruleset("standard", 100),
        (SeatSpec(Seat.Kind.PLAYER, user=a), SeatSpec(Seat.Kind.PLAYER, user=b)),
    )


def test_it_refuses_while_the_challenged_player_is_in_a_lobby_match(
    client: Client, alice: User, bob: User, carol: User, here: None
) -> None:
    _lobby_match(bob, carol)
    client.force_login(alice)
    response = _send(client, "bob")
    assert response.status_code == 409
    assert "bob is playing a lobby match right now" in response.content.decode()


def test_it_refuses_while_the_challenger_is_in_a_lobby_match(
    alice: User, bob: User, carol: User, here: None
) -> None:
    _lobby_match(alice, carol)
    with pytest.raises(refusals.Conflict, match="You are in a lobby match already"):
        _challenge(alice, bob)


def test_it_ignores_a_match_against_bea(alice: User, bob: User, here: None) -> None:
    services_match = create_match(
        Match.Kind.BEA,
        ruleset("standard", 100),
        (SeatSpec(Seat.Kind.PLAYER, user=alice), SeatSpec(Seat.Kind.BEA, bea_level="easy")),
    )
    assert services_match.is_active
    assert _challenge(alice, bob).status == Challenge.Status.OPEN


def test_it_needs_a_post_and_a_sign_in(client: Client, here: None) -> None:
    assert client.get("/lobby/challenges/").status_code == 405
    response = _send(client, "bob")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


# --- Accepting --------------------------------------------------------------------------------


def test_it_accepts_and_starts_the_match(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(bob)
    response = client.post(f"/lobby/challenges/{item.pk}/accept")
    (match,) = lobby_matches()
    assert response.status_code == 302
    assert response["Location"] == f"/games/{match.public_id}/"
    seats = list(match.seats.order_by("number"))
    assert [s.user for s in seats] == [alice, bob]
    assert all(s.kind == Seat.Kind.PLAYER for s in seats)
    assert match.rules["name"] == "standard" and match.rules["target"] == 100
    item.refresh_from_db()
    assert item.status == Challenge.Status.ACCEPTED and item.match == match


def test_it_redirects_htmx_to_the_match(client: Client, alice: User, bob: User, here: None) -> None:
    item = _challenge(alice, bob)
    client.force_login(bob)
    response = client.post(f"/lobby/challenges/{item.pk}/accept", **HTMX)
    (match,) = lobby_matches()
    assert response["HX-Redirect"] == f"/games/{match.public_id}/"


def test_it_withdraws_the_players_other_challenges_and_seeks(
    alice: User, bob: User, carol: User, here: None
) -> None:
    item = _challenge(alice, bob)
    other = services.challenge(carol, alice, "simple", 50)
    seek = services.post_seek(bob, "standard", 100)
    services.accept_challenge(item, bob)
    other.refresh_from_db()
    seek.refresh_from_db()
    assert other.status == Challenge.Status.CANCELLED
    assert seek.status == seek.Status.CANCELLED


def test_it_refuses_a_repeated_accept(client: Client, alice: User, bob: User, here: None) -> None:
    item = _challenge(alice, bob)
    client.force_login(bob)
    client.post(f"/lobby/challenges/{item.pk}/accept")
    response = client.post(f"/lobby/challenges/{item.pk}/accept", **HTMX)
    assert response.status_code == 409
    assert "That challenge was already accepted." in response.content.decode()
    assert len(lobby_matches()) == 1


def test_it_refuses_accepting_your_own_challenge(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(alice)
    response = client.post(f"/lobby/challenges/{item.pk}/accept")
    assert response.status_code == 403
    assert "Only the challenged player can accept" in response.content.decode()
    assert not lobby_matches()


def test_it_hides_someone_elses_challenge(
    client: Client, alice: User, bob: User, carol: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(carol)
    for verb in ("accept", "decline", "cancel"):
        assert client.post(f"/lobby/challenges/{item.pk}/{verb}").status_code == 404
    assert client.post("/lobby/challenges/999999/accept").status_code == 404
    item.refresh_from_db()
    assert item.status == Challenge.Status.OPEN


def test_it_refuses_accepting_an_expired_challenge(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    age_challenge(item)
    client.force_login(bob)
    response = client.post(f"/lobby/challenges/{item.pk}/accept", **HTMX)
    assert response.status_code == 409
    assert "That challenge has expired." in response.content.decode()
    assert not lobby_matches()


def test_it_refuses_accepting_a_cancelled_challenge(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    services.cancel_challenge(item, alice)
    client.force_login(bob)
    response = client.post(f"/lobby/challenges/{item.pk}/accept")
    assert response.status_code == 409
    assert "That challenge was cancelled." in response.content.decode()
    assert not lobby_matches()


def test_it_refuses_accepting_when_the_challenger_left(alice: User, bob: User, here: None) -> None:
    item = _challenge(alice, bob)
    go_quiet(alice)
    with pytest.raises(refusals.Conflict, match="alice has left the lobby"):
        services.accept_challenge(item, bob)
    assert not lobby_matches()


# --- Declining and cancelling -----------------------------------------------------------------


def test_it_declines_with_a_reason_the_challenger_sees(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(bob)
    response = client.post(f"/lobby/challenges/{item.pk}/decline", {"reason": "rules"})
    assert response.status_code == 302
    item.refresh_from_db()
    assert (item.status, item.reason) == (Challenge.Status.DECLINED, "rules")
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    assert "declined: different rules, please." in html


@pytest.mark.parametrize("reason", ["", "rude", "later "])
def test_it_refuses_a_decline_without_a_known_reason(
    client: Client, alice: User, bob: User, here: None, reason: str
) -> None:
    item = _challenge(alice, bob)
    client.force_login(bob)
    response = client.post(f"/lobby/challenges/{item.pk}/decline", {"reason": reason})
    assert response.status_code == 400
    assert "Choose a reason" in response.content.decode()
    item.refresh_from_db()
    assert item.status == Challenge.Status.OPEN


def test_it_refuses_a_decline_by_the_challenger(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(alice)
    response = client.post(f"/lobby/challenges/{item.pk}/decline", {"reason": "later"})
    assert response.status_code == 403


def test_it_cancels(client: Client, alice: User, bob: User, here: None) -> None:
    item = _challenge(alice, bob)
    client.force_login(alice)
    response = client.post(f"/lobby/challenges/{item.pk}/cancel", **HTMX)
    assert response.status_code == 200
    assert "Challenge cancelled." in response.content.decode()
    item.refresh_from_db()
    assert item.status == Challenge.Status.CANCELLED
    client.force_login(bob)
    assert "challenges you" not in client.get("/lobby/").content.decode()


def test_it_refuses_a_cancel_by_the_challenged_player(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(bob)
    assert client.post(f"/lobby/challenges/{item.pk}/cancel").status_code == 403
    item.refresh_from_db()
    assert item.status == Challenge.Status.OPEN


def test_it_refuses_cancelling_twice(alice: User, bob: User, here: None) -> None:
    item = _challenge(alice, bob)
    services.cancel_challenge(item, alice)
    with pytest.raises(refusals.Conflict, match="cancelled"):
        services.cancel_challenge(item, alice)


# --- Expiry -----------------------------------------------------------------------------------


def test_it_expires_an_unanswered_challenge_after_two_minutes(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    age_challenge(item)
    client.force_login(bob)
    assert "challenges you" not in client.get("/lobby/").content.decode()
    assert presence.sweep(force=True)
    item.refresh_from_db()
    assert item.status == Challenge.Status.EXPIRED
    client.force_login(alice)
    assert "expired" in client.get("/lobby/").content.decode()


def test_it_expires_a_challenge_when_the_challenger_goes_offline(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    go_quiet(alice)
    client.force_login(bob)
    assert "challenges you" not in client.get("/lobby/").content.decode()
    presence.sweep(force=True)
    item.refresh_from_db()
    assert item.status == Challenge.Status.EXPIRED


def test_it_keeps_a_fresh_challenge_through_a_sweep(alice: User, bob: User, here: None) -> None:
    item = _challenge(alice, bob)
    presence.sweep(force=True)
    item.refresh_from_db()
    assert item.status == Challenge.Status.OPEN
