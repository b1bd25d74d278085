"""New accounts are limited per client address (SIGNUP_LIMIT_PER_ADDRESS a window): a
throw-away account per rated win is what made rating farms cheap."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from ginsite import settings as shipped

pytestmark = pytest.mark.django_db

PASSPHRASE = "a long pass phrase"
REFUSED = "Too many new accounts were made from your network recently. Try again later."


@pytest.fixture(autouse=True)
def _shipped_limit(settings) -> None:  # type: ignore[no-untyped-def]
    # tests/settings.py lifts the limit for the rest of the suite; here it is the site's.
    settings.ACCOUNT_RATE_LIMITS = shipped.ACCOUNT_RATE_LIMITS
    assert shipped.ACCOUNT_RATE_LIMITS["new_account"] == "3/3600s/ip"


def signup(address: str, n: int, **headers: str):  # type: ignore[no-untyped-def]
    return Client(REMOTE_ADDR=address).post(
        "/accounts/signup/",
        {
            "username": f"farm{n}",
            "display_name": f"Farm {n}",
            "email": f"farm{n}@example.com",
            "password1": PASSPHRASE,
            "password2": PASSPHRASE,
        },
        headers=headers,
    )


def test_it_allows_three_accounts_an_hour_from_one_address() -> None:
    for n in range(3):
        assert signup("203.0.113.5", n).status_code == 302
    response = signup("203.0.113.5", 3)
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [REFUSED]
    assert REFUSED in response.content.decode()
    assert not User.objects.filter(username="farm3").exists()
    # Another address is not held up by this one.
    assert signup("198.51.100.7", 4).status_code == 302


def test_an_attempt_that_makes_no_account_does_not_count() -> None:
    client = Client(REMOTE_ADDR="203.0.113.5")
    for _ in range(5):
        response = client.post("/accounts/signup/", {"username": "x", "email": "nope"})
        assert response.status_code == 200
    for n in range(3):
        assert signup("203.0.113.5", n).status_code == 302


def test_an_ipv6_network_counts_as_one_address() -> None:
    # allauth counts an IPv6 client by its /64: one home or one server, many addresses.
    for n in range(3):
        assert signup(f"2001:db8:1:2::{n + 1}", n).status_code == 302
    assert signup("2001:db8:1:2::99", 3).status_code == 200
    assert signup("2001:db8:1:3::1", 4).status_code == 302


def test_it_says_so_in_german() -> None:
    for n in range(3):
        signup("203.0.113.5", n)
    page = signup("203.0.113.5", 3, **{"accept-language": "de"}).content.decode()
    assert "Von deinem Netz aus wurden zuletzt zu viele neue Konten angelegt." in page
