"""Finding a player by name: a prefix of the display name, case, width and look-alike letters
folded through the name key; a search no name could match is a clear error, not a list."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lobby import services
from lobby.models import ensure_profile
from tests.lobby.lobby_helpers import HTMX, signed_in

pytestmark = pytest.mark.django_db

CYRILLIC_A = "\u0430"


@pytest.fixture
def players(alice: User, bob: User, carol: User, django_user_model: type[User]) -> None:
    """alice, bob, carol, and alfred (whose display name is "Alfred")."""
    alfred = django_user_model.objects.create_user(username="alfred", password="x")
    profile = ensure_profile(alfred)
    profile.display_name = "Alfred"
    profile.save()


def _found(client: Client, q: str) -> str:
    response = client.get("/players/", {"q": q}, **HTMX)
    assert response.status_code == 200
    return response.content.decode()


def test_it_finds_names_by_their_start_whatever_the_case(players: None, bob: User) -> None:
    html = _found(signed_in(Client(), bob), "AL")
    assert 'data-player="alice"' in html and 'data-player="alfred"' in html
    assert 'data-player="carol"' not in html


def test_a_cyrillic_a_finds_alice(players: None, bob: User) -> None:
    html = _found(signed_in(Client(), bob), f"{CYRILLIC_A}lic")
    assert 'data-player="alice"' in html
    assert 'data-player="alfred"' not in html


def test_a_fullwidth_search_finds_alice(players: None, bob: User) -> None:
    assert 'data-player="alice"' in _found(signed_in(Client(), bob), "\uff41\uff4c\uff49")


def test_it_says_when_nobody_matches(players: None, bob: User) -> None:
    html = _found(signed_in(Client(), bob), "zed")
    assert "No player" in html and "data-player" not in html


@pytest.mark.parametrize(
    ("q", "says"), [("a", "at least 2"), ("a" * 10_000, "at most 24"), ("   ", "at least 2")]
)
def test_a_search_no_name_could_match_is_refused(
    players: None, bob: User, q: str, says: str
) -> None:
    client = signed_in(Client(), bob)
    response = client.get("/players/", {"q": q}, **HTMX)
    assert response.status_code == 400
    html = response.content.decode()
    assert says in html and "data-player" not in html


def test_it_works_without_javascript_as_a_whole_page(players: None, bob: User) -> None:
    response = signed_in(Client(), bob).get("/players/", {"q": "car"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "<html" in html and 'data-player="carol"' in html
    assert 'href="/players/carol/"' in html


def test_a_block_hides_both_sides_from_the_search(players: None, alice: User, bob: User) -> None:
    services.block(alice, bob)
    assert 'data-player="bob"' not in _found(signed_in(Client(), alice), "bo")
    assert 'data-player="alice"' not in _found(signed_in(Client(), bob), "ali")


def test_the_lobby_has_a_search_box(bob: User) -> None:
    html = signed_in(Client(), bob).get("/lobby/").content.decode()
    assert 'action="/players/"' in html and 'name="q"' in html


def test_searching_needs_an_account(players: None) -> None:
    response = Client().get("/players/", {"q": "al"})
    assert response.status_code == 302 and "login" in response["Location"]
