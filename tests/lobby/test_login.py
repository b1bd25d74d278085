from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.http import HttpResponse
from django.test import Client

pytestmark = pytest.mark.django_db

LOCKED_OUT = "Too many failed sign-ins"


def test_it_shows_the_form_in_the_site_layout(client: Client) -> None:
    page = client.get("/accounts/login/").content.decode()
    assert 'name="login"' in page and 'name="password"' in page
    assert 'class="site-header"' in page


def test_it_signs_in_and_shows_the_display_name(client: Client, alice: User, password: str) -> None:
    alice.profile.display_name = "Queen of Spades"
    alice.profile.save()
    response = client.post("/accounts/login/", {"login": "alice", "password": password})
    assert response.status_code == 302
    page = client.get("/").content.decode()
    assert "Queen of Spades" in page
    assert 'href="/players/alice/"' in page
    assert 'href="/settings/"' in page


def test_it_refuses_a_wrong_password(client: Client, alice: User) -> None:
    response = client.post("/accounts/login/", {"login": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def _locked_out(response: HttpResponse) -> bool:
    return response.status_code == 429 and LOCKED_OUT in response.content.decode()


def test_it_throttles_after_five_failures(client: Client, alice: User, password: str) -> None:
    for _ in range(4):
        response = client.post("/accounts/login/", {"login": "alice", "password": "wrong"})
        assert response.status_code == 200
    response = client.post("/accounts/login/", {"login": "alice", "password": "wrong"})
    assert _locked_out(response)
    assert int(response["Retry-After"]) == 15 * 60
    # Even the right password is refused now: guessing has stopped paying off.
    response = client.post("/accounts/login/", {"login": "alice", "password": password})
    assert _locked_out(response)
    assert "_auth_user_id" not in client.session


def test_it_throttles_per_username(client: Client, alice: User, bob: User, password: str) -> None:
    for _ in range(5):
        client.post("/accounts/login/", {"login": "alice", "password": "wrong"})
    response = client.post("/accounts/login/", {"login": "bob", "password": password})
    assert response.status_code == 302


def test_it_counts_failures_whatever_the_host_header_or_port(alice: User, password: str) -> None:
    # Each attempt from a new client on another host name or port, as through other workers.
    hosts = ["127.0.0.1:8001", "localhost:8002", "127.0.0.1:8003", "localhost", "127.0.0.1:9"]
    for host in hosts:
        Client().post(
            "/accounts/login/", {"login": "alice", "password": "wrong"}, headers={"host": host}
        )
    client = Client()
    response = client.post(
        "/accounts/login/", {"login": "alice", "password": password}, headers={"host": "[::1]:7"}
    )
    assert _locked_out(response)
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("spelling", ["Alice", " alice ", "ALICE", "\uff41lice"])
def test_it_counts_every_spelling_of_a_name_as_one(
    client: Client, alice: User, password: str, spelling: str
) -> None:
    for _ in range(5):
        client.post("/accounts/login/", {"login": spelling, "password": "wrong"})
    response = client.post("/accounts/login/", {"login": "alice", "password": password})
    assert _locked_out(response)


def _fail_from(address: str, name: str = "alice", times: int = 1) -> HttpResponse:
    response = HttpResponse()
    for _ in range(times):
        response = Client(REMOTE_ADDR=address).post(
            "/accounts/login/", {"login": name, "password": "wrong"}
        )
    return response


def test_failures_elsewhere_do_not_lock_the_player_out(alice: User, password: str) -> None:
    # Anyone could lock any player out with five wrong passwords (issue 28): the count that
    # locks after five is per name and address, so the player's own address still gets in.
    assert _locked_out(_fail_from("203.0.113.9", times=5))
    assert _locked_out(_fail_from("203.0.113.9"))  # the guesser's address stays locked
    victim = Client(REMOTE_ADDR="198.51.100.7")
    response = victim.post("/accounts/login/", {"login": "alice", "password": password})
    assert response.status_code == 302
    assert victim.session["_auth_user_id"] == str(alice.pk)


def test_the_name_alone_locks_after_a_much_higher_bar(settings, alice: User, password: str) -> None:  # type: ignore[no-untyped-def]
    # Guessing spread over many addresses: four each from five addresses, twenty in all.
    settings.LOGIN_NAME_FAILURE_LIMIT = 20
    for n in range(5):
        last = _fail_from(f"203.0.113.{n}", times=4)
        if n < 4:
            assert last.status_code == 200  # no address reached its five
    assert _locked_out(last)  # the twentieth failure of the name
    victim = Client(REMOTE_ADDR="198.51.100.7")
    response = victim.post("/accounts/login/", {"login": "alice", "password": password})
    assert _locked_out(response)
    assert int(response["Retry-After"]) == 15 * 60
    assert "_auth_user_id" not in victim.session


def test_the_name_alone_is_not_locked_below_its_bar(alice: User, password: str) -> None:
    # The default bar is LOGIN_NAME_FAILURE_LIMIT = 50: 49 failures from 49 addresses leave
    # the name open to its player.
    for n in range(49):
        assert _fail_from(f"203.0.113.{n}").status_code == 200
    victim = Client(REMOTE_ADDR="198.51.100.7")
    response = victim.post("/accounts/login/", {"login": "alice", "password": password})
    assert response.status_code == 302


def test_it_lets_the_name_in_again_after_the_wait(
    client: Client, alice: User, password: str
) -> None:
    for _ in range(5):
        client.post("/accounts/login/", {"login": "alice", "password": "wrong"})
    # The count lives in the cache for the cool-off time; when it expires, so does the lockout.
    cache.clear()
    response = client.post("/accounts/login/", {"login": "alice", "password": password})
    assert response.status_code == 302


def test_it_applies_the_preferred_language_at_sign_in(
    client: Client, alice: User, password: str
) -> None:
    alice.profile.language = "de"
    alice.profile.save()
    response = client.post("/accounts/login/", {"login": "alice", "password": password})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "de"


def test_it_says_so_in_german(client: Client, alice: User) -> None:
    for _ in range(5):
        response = client.post(
            "/accounts/login/",
            {"login": "alice", "password": "wrong"},
            headers={"accept-language": "de"},
        )
    assert response.status_code == 429
    page = response.content.decode()
    assert "Zu viele fehlgeschlagene Anmeldungen" in page
    assert "Versuche es in 15 Minuten wieder." in page
