"""Hints between two people: offered only when both agreed when the match was made (a
challenge that proposed them, accepted), in the page and through the API alike."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match
from lobby.models import Challenge
from tests.api.conftest import Api, body, token_for
from tests.lobby.lobby_helpers import online
from tests.seeds import deal

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def _signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _challenge_and_accept(alice: User, bob: User, hints: bool) -> Match:
    online(alice, bob)
    fields = {"to": "bob", "preset": "standard", "target": "100"}
    if hints:
        fields["hints"] = "on"
    _signed_in(alice).post(reverse("lobby:challenge"), fields)
    item = Challenge.objects.get(challenger=alice, status=Challenge.Status.OPEN)
    assert item.hints is hints
    _signed_in(bob).post(reverse("lobby:accept_challenge", args=[item.pk]))
    return Challenge.objects.get(pk=item.pk).match  # type: ignore[return-value]


@pytest.mark.parametrize("hints", [True, False])
def test_the_hint_is_offered_between_people_only_when_both_agreed(
    alice: User, bob: User, hints: bool
) -> None:
    match = _challenge_and_accept(alice, bob, hints)
    assert match.hints is hints
    deal(match)
    alice_client = _signed_in(alice)  # seat 0 plays first
    table = reverse("games:table", args=[match.public_id])
    hint = reverse("games:hint", args=[match.public_id])
    page = alice_client.get(table).content.decode()
    assert (f'href="{hint}"' in page) is hints
    answer = alice_client.get(hint, **HTMX)
    assert answer.status_code == (200 if hints else 404)
    if hints:
        assert "Bea would" in answer.content.decode()


def test_the_lobby_shows_a_challenge_with_hints_to_the_one_challenged(
    alice: User, bob: User
) -> None:
    online(alice, bob)
    _signed_in(alice).post(
        reverse("lobby:challenge"),
        {"to": "bob", "preset": "standard", "target": "100", "hints": "on"},
    )
    lobby = _signed_in(bob).get(reverse("lobby:lobby")).content.decode()
    assert "with hints" in lobby


def test_the_api_proposes_hints_and_accepting_agrees(alice: User, bob: User) -> None:
    online(alice, bob)
    alice_api, bob_api = Api(token_for(alice)), Api(token_for(bob))
    made = alice_api.post("/challenges", {"to": "bob", "hints": True})
    assert made.status_code == 201 and body(made)["hints"] is True
    started = bob_api.post(f"/challenges/{body(made)['id']}/accept")
    assert started.status_code == 201
    assert Match.objects.get(public_id=body(started)["match"]).hints is True
    plain = Api(token_for(bob)).get("/challenges")
    assert all("hints" in item for item in body(plain)["incoming"] + body(plain)["outgoing"])
