"""A block holds beyond the lobby's lists (issue 39, finding 3): after Bob blocks Alice, neither
sees the other's running matches on a player's page (HTML and API), neither reaches the other
through a table they shared (a quick message or an offer, refused with a reason and delivered
to nobody: no event, no bubble, no Web Push), in a finished match or a running one. Carol
stands for everyone else; Dave plays Bob."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games import services as game_services
from games.models import Match, Offer
from lobby import services
from lobby.accounts import tokens
from lobby.models import PlayerEvent
from lobby.webpush import notifications
from tests.games.live_helpers import cookie_of, frames, lobby_match, opening_frames, socket
from tests.lobby.lobby_helpers import HTMX, online, signed_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpResponse


def _api(user: User, method: str, path: str, body: Any = None) -> HttpResponse:
    secret = tokens.create(user, "t")[1]
    headers = {"Authorization": f"Bearer {secret}"}
    if method == "get":
        return Client().get(f"/api/v1{path}", headers=headers)
    return Client().post(
        f"/api/v1{path}", json.dumps(body), content_type="application/json", headers=headers
    )


def _finished(first: User, second: User) -> Match:
    match = lobby_match(first, second)
    game_services.resign(match, 1, match.version)
    match.refresh_from_db()
    return match


@pytest.fixture
def dave(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("dave", password="x")


# --- A player's page: running matches -----------------------------------------------------------


def _on_page(viewer: User | None, player: User, match: Match) -> bool:
    client = signed_in(Client(), viewer) if viewer is not None else Client()
    page = client.get(f"/players/{player.get_username()}/")
    assert page.status_code == 200
    return f'data-match="{match.public_id}"' in page.content.decode()


def _in_api(viewer: User, player: User, match: Match) -> bool:
    answer = _api(viewer, "get", f"/players/{player.get_username()}")
    assert answer.status_code == 200
    return match.public_id in {m["id"] for m in json.loads(answer.content)["recent_matches"]}


@pytest.mark.django_db
@pytest.mark.parametrize("blocker", ["bob", "alice"])
def test_neither_side_sees_the_other_s_running_match_on_a_player_page(
    alice: User, bob: User, carol: User, dave: User, blocker: str
) -> None:
    over = _finished(bob, carol)
    running = lobby_match(bob, dave)
    users = {"alice": alice, "bob": bob}
    services.block(users[blocker], users["bob" if blocker == "alice" else "alice"])
    for page_of in (bob, dave):  # Bob's page, and the page of the player he is playing
        assert not _on_page(alice, page_of, running)
        assert not _in_api(alice, page_of, running)
        assert _on_page(carol, page_of, running) and _in_api(carol, page_of, running)
    # History stays: a finished match tells nobody where Bob is now.
    assert _on_page(alice, bob, over) and _in_api(alice, bob, over)
    # And the other way round: Alice's running match is hidden from Bob.
    hers = lobby_match(alice, carol)
    assert not _on_page(bob, alice, hers) and not _in_api(bob, alice, hers)


@pytest.mark.django_db
def test_signing_out_shows_no_running_match_either(alice: User, bob: User, dave: User) -> None:
    # A visitor without an account may not watch a lobby match, so is shown none running:
    # otherwise signing out would be the way around the block.
    over = _finished(bob, alice)
    running = lobby_match(bob, dave)
    assert not _on_page(None, bob, running)
    assert _on_page(None, bob, over)


# --- Quick messages -----------------------------------------------------------------------------


def _messages_for(user: User) -> list[dict[str, Any]]:
    return [e.payload for e in PlayerEvent.objects.filter(user=user, kind="message")]


def _send_three_ways(sender: User, match: Match) -> list[HttpResponse]:
    path = f"/games/{match.public_id}/messages"
    page = signed_in(Client(), sender)
    return [
        page.post(path, {"message": "good_game"}, follow=True),
        page.post(path, {"message": "good_game"}, **HTMX),
        _api(sender, "post", f"/matches/{match.public_id}/messages", {"message": "good_game"}),
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("running", [False, True], ids=["finished", "running"])
@pytest.mark.parametrize("sender", ["alice", "bob"])
def test_quick_messages_across_a_block_are_refused_and_reach_nobody(
    alice: User, bob: User, running: bool, sender: str
) -> None:
    match = lobby_match(alice, bob) if running else _finished(alice, bob)
    services.block(bob, alice)
    users = {"alice": alice, "bob": bob}
    other = bob if sender == "alice" else alice
    page, htmx, api = _send_three_ways(users[sender], match)
    says = f"Quick messages between you and {other.username} are off."
    assert says in page.content.decode()
    assert htmx.status_code == 403 and says in htmx.content.decode()
    assert api.status_code == 403
    assert json.loads(api.content) == {"code": "not_allowed", "message": says}
    assert _messages_for(alice) == [] and _messages_for(bob) == []


@pytest.mark.django_db
def test_unblocking_lets_quick_messages_through_again(alice: User, bob: User) -> None:
    match = _finished(alice, bob)
    services.block(bob, alice)
    services.unblock(bob, alice)
    sent = _api(alice, "post", f"/matches/{match.public_id}/messages", {"message": "thanks"})
    assert sent.status_code == 200
    assert [m["message"] for m in _messages_for(bob)] == ["thanks"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_blocker_s_table_socket_gets_no_bubble(alice: User, bob: User) -> None:
    match = await database_sync_to_async(_finished)(alice, bob)
    await database_sync_to_async(services.block)(bob, alice)
    cookie = await database_sync_to_async(lambda: cookie_of(signed_in(Client(), bob)))()
    table = socket(match, cookie)
    assert (await table.connect())[0]
    await opening_frames(table)
    path = f"/matches/{match.public_id}/messages"
    refused = await database_sync_to_async(_api)(alice, "post", path, {"message": "oops"})
    assert refused.status_code == 403
    assert not any("quick-bubble" in text for text in await frames(table))
    await table.disconnect()


# --- Offers: a rematch would reach the blocker (a Web Push) and start a match ------------------


@pytest.mark.django_db
def test_a_rematch_offer_across_a_block_is_refused_with_no_push(
    alice: User, bob: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    pushed: list[int] = []
    monkeypatch.setattr(notifications, "send", lambda user_id, notice: pushed.append(user_id))
    match = _finished(alice, bob)
    services.block(bob, alice)
    path = f"/matches/{match.public_id}/offers"
    api = _api(alice, "post", path, {"kind": "rematch", "version": match.version})
    assert api.status_code == 403
    assert json.loads(api.content)["message"] == "Offers between you and bob are off."
    page = signed_in(Client(), alice).post(
        f"/games/{match.public_id}/offer", {"kind": "rematch", "version": match.version}, **HTMX
    )
    assert page.status_code == 403 and "Offers between you and bob are off." in page.text
    assert not Offer.objects.exists() and pushed == []


@pytest.mark.django_db
def test_an_offer_made_before_the_block_cannot_be_accepted(alice: User, bob: User) -> None:
    online(alice, bob)
    match = _finished(alice, bob)
    offer = game_services.make_offer(match, 0, Offer.Kind.REMATCH, match.version)
    services.block(bob, alice)
    match.refresh_from_db()
    path = f"/matches/{match.public_id}/offers/{offer.pk}/accept"
    answer = _api(bob, "post", path, {"version": match.version})
    assert answer.status_code == 403
    assert Match.objects.count() == 1
    declined = _api(bob, "post", path.replace("accept", "decline"), {"version": match.version})
    assert declined.status_code == 200
