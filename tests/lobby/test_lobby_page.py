"""The lobby page: who is here, the regions, presence, and blocks from the profile page."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Match, Seat
from games.services import SeatSpec, create_match, ruleset
from ginsite.lib import refusals
from lobby import presence, services
from lobby.models import Block, Challenge, Presence
from tests.lobby.lobby_helpers import go_quiet, online

pytestmark = pytest.mark.django_db


def _lobby_match(a: User, b: User, *, winner: int | None = None) -> Match:
    match = create_match(
        Match.Kind.LOBBY,
        ruleset("standard", 100),
        (SeatSpec(Seat.Kind.PLAYER, user=a), SeatSpec(Seat.Kind.PLAYER, user=b)),
    )
    if winner is not None:
        Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, winner_seat=winner)
    return match


def test_a_guest_is_told_why_it_needs_an_account_and_offered_sign_up(client: Client) -> None:
    response = client.get("/lobby/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "so it needs an account" in html
    assert 'href="/accounts/signup/?next=/lobby/"' in html
    # None of the lobby itself: no players, no stream.
    assert 'id="lobby-players"' not in html and "ws-connect" not in html


def test_it_renders_every_region_and_connects_the_stream(client: Client, alice: User) -> None:
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    for region in ("lobby-players", "lobby-challenges", "lobby-seeks", "lobby-matches"):
        assert f'id="{region}"' in html
    assert 'hx-ext="ws"' in html and 'ws-connect="/ws/lobby/"' in html
    assert "ws-send" in html and 'hx-trigger="every 20s"' in html
    assert "js/lobby.js" in html


def test_it_counts_a_page_view_as_presence(client: Client, alice: User) -> None:
    client.force_login(alice)
    client.get("/lobby/")
    assert presence.is_online(alice.pk)
    assert Presence.objects.filter(user=alice, channel_name=f"http:{alice.pk}").exists()


def test_it_lists_players_online_with_their_record(
    client: Client, alice: User, bob: User, carol: User
) -> None:
    _lobby_match(alice, bob, winner=1)
    _lobby_match(alice, bob, winner=0)
    _lobby_match(bob, carol, winner=0)
    online(bob)
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    assert 'data-player="alice"' in html and 'data-player="bob"' in html
    assert 'data-player="carol"' not in html  # not here
    assert 'href="/players/bob/"' in html
    assert "2 won of 3" in html  # bob
    assert "1 won of 2" in html  # alice


def test_it_drops_a_player_not_seen_for_45_seconds(client: Client, alice: User, bob: User) -> None:
    online(bob)
    go_quiet(bob, 46)
    client.force_login(alice)
    assert 'data-player="bob"' not in client.get("/lobby/").content.decode()


def test_it_keeps_a_player_seen_30_seconds_ago(client: Client, alice: User, bob: User) -> None:
    online(bob)
    go_quiet(bob, 30)
    client.force_login(alice)
    assert 'data-player="bob"' in client.get("/lobby/").content.decode()


def test_it_sweeps_stale_rows(alice: User, bob: User) -> None:
    online(alice, bob)
    go_quiet(bob)
    assert presence.sweep(force=True)
    assert not Presence.objects.filter(user=bob).exists()
    assert Presence.objects.filter(user=alice).exists()
    assert not presence.sweep(force=True)  # nothing more to do


def test_it_sweeps_at_most_once_per_interval(alice: User, bob: User) -> None:
    online(alice, bob)
    go_quiet(bob)
    assert presence.sweep()
    go_quiet(alice)
    assert not presence.sweep()  # the lock is held for SWEEP_EVERY_SECONDS


def test_it_shows_who_is_in_a_match_and_the_matches_in_progress(
    client: Client, alice: User, bob: User, carol: User
) -> None:
    match = _lobby_match(bob, carol)
    online(bob, carol)
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    assert "in a match" in html
    assert f'href="/games/{match.public_id}/"' in html
    assert "Watch" in html
    # A player who is busy may be challenged to a correspondence match only.
    row = html[html.index('data-player="bob"') :]
    row = row[: row.index("</li>")]
    days = row[row.index('<select name="days"') :]
    assert "Live" not in days[: days.index("</select>")]


def test_it_offers_a_way_back_to_my_match(client: Client, alice: User, bob: User) -> None:
    match = _lobby_match(alice, bob)
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    assert "Back to your match" in html and f"/games/{match.public_id}/" in html
    assert "finish it before challenging anyone to another" in html


def test_it_shows_the_message_after_a_plain_post(client: Client, alice: User, bob: User) -> None:
    online(bob)
    client.force_login(alice)
    response = client.post(
        "/lobby/challenges/", {"to": "bob", "preset": "standard", "target": "50"}, follow=True
    )
    assert response.redirect_chain == [("/lobby/", 302)]
    assert "Challenge sent to bob." in response.content.decode()


def test_it_renders_in_german(client: Client, alice: User) -> None:
    alice.profile.language = "de"
    alice.profile.save()
    client.force_login(alice)
    client.cookies["django_language"] = "de"
    assert client.get("/lobby/").status_code == 200


# --- Blocks from the profile page -------------------------------------------------------------


def test_it_offers_challenge_and_block_on_a_profile(client: Client, alice: User, bob: User) -> None:
    client.force_login(alice)
    html = client.get("/players/bob/").content.decode()
    assert 'action="/lobby/challenges/"' in html and 'value="bob"' in html
    assert 'action="/players/bob/block"' in html
    assert 'action="/players/alice/block"' not in client.get("/players/alice/").content.decode()


def test_it_blocks_and_unblocks(client: Client, alice: User, bob: User) -> None:
    online(alice, bob)
    client.force_login(bob)
    response = client.post("/players/alice/block", follow=True)
    assert Block.objects.filter(blocker=bob, blocked=alice).exists()
    html = response.content.decode()
    assert "You blocked alice" in html and 'action="/players/alice/unblock"' in html
    with pytest.raises(refusals.Conflict, match="bob is not in the lobby right now"):
        services.challenge(alice, bob, "standard", 100)
    client.post("/players/alice/unblock")
    assert not Block.objects.exists()
    assert services.challenge(alice, bob, "standard", 100).status == Challenge.Status.OPEN


def test_it_cancels_open_challenges_when_blocking(alice: User, bob: User) -> None:
    online(alice, bob)
    item = services.challenge(alice, bob, "standard", 100)
    services.block(bob, alice)
    item.refresh_from_db()
    assert item.status == Challenge.Status.CANCELLED


def test_it_refuses_blocking_yourself(client: Client, alice: User) -> None:
    client.force_login(alice)
    response = client.post("/players/alice/block", follow=True)
    assert "You cannot block yourself." in response.content.decode()
    assert not Block.objects.exists()


def test_it_needs_a_sign_in_and_a_post_to_block(client: Client, alice: User, bob: User) -> None:
    assert client.post("/players/bob/block")["Location"].startswith("/accounts/login/")
    client.force_login(alice)
    assert client.get("/players/bob/block").status_code == 405
    assert client.post("/players/nobody/block").status_code == 404
