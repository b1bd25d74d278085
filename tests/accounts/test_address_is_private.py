"""An address is its owner's: never shown to another player (pages, the API, the player
search), never in the request log or the players' events. The API says only whether the
player's own address is verified."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lobby.accounts import tokens
from lobby.models import PlayerEvent

from .conftest import give_address, link_in, mails_to

pytestmark = pytest.mark.django_db

ADDRESS = "alice.private@example.com"


def _api(user: User) -> Client:
    return Client(headers={"Authorization": f"Bearer {tokens.create(user, 'test')[1]}"})


def test_me_says_whether_my_address_is_verified_and_nothing_more(alice: User) -> None:
    api = _api(alice)
    assert api.get("/api/v1/me").json()["email_verified"] is False
    address = give_address(alice, ADDRESS, verified=False)
    assert api.get("/api/v1/me").json()["email_verified"] is False
    address.verified = True
    address.save()
    answer = api.get("/api/v1/me")
    assert answer.json()["email_verified"] is True
    assert "@" not in answer.content.decode()


def test_other_players_never_see_it(alice: User, bob: User) -> None:
    give_address(alice, ADDRESS, verified=True)
    bob_client = Client()
    bob_client.force_login(bob)
    for path in ("/players/alice/", "/players/?q=ali", "/lobby/", "/friends/"):
        assert ADDRESS not in bob_client.get(path).content.decode(), path
    api = _api(bob)
    for path in ("/api/v1/players/alice", "/api/v1/players/online", "/api/v1/players?q=ali"):
        assert ADDRESS not in api.get(path).content.decode(), path


def test_it_stays_out_of_the_logs_and_the_events(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    client = Client()
    client.post(
        "/accounts/signup/",
        {
            "username": "dora",
            "display_name": "Dora",
            "email": "dora.private@example.com",
            "password1": "a long pass phrase",
            "password2": "a long pass phrase",
        },
    )
    link = link_in(mails_to("dora.private@example.com")[0])
    key = link.rstrip("/").rsplit("/", 1)[-1]
    # Opened in another player's browser (which signs them out: axes logs that), then confirmed.
    other = Client()
    other.force_login(User.objects.create_user("erin", password="x"))
    other.get(link)
    client.post(link)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "/accounts/confirm-email/*/" in logged
    assert key not in logged
    assert "dora.private" not in logged
    events = list(PlayerEvent.objects.values_list("payload", flat=True))
    assert "dora.private" not in repr(events)
