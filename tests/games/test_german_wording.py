"""The table's German speaks to the player as "du" with the verb that goes with it (issue 41):
after the other player resigns, the winner reads "Du hast sie gewonnen.", never "Du hat"."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from games import services
from tests.games.live_helpers import lobby_match, signed_in

from .conftest import url

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def _table_in_german(user: User, match) -> str:  # type: ignore[no-untyped-def]
    client = signed_in(user)
    client.cookies["django_language"] = "de"
    return client.get(url(match, "table")).content.decode()


def test_it_tells_the_winner_du_hast_sie_gewonnen(alice: User, bob: User):
    match = lobby_match(alice, bob)
    services.resign(match, 1, match.version)
    page = _table_in_german(alice, match)
    assert "Du hast sie gewonnen." in page
    assert "Du hat" not in page


def test_it_names_the_winner_to_the_loser(alice: User, bob: User):
    match = lobby_match(alice, bob)
    services.resign(match, 1, match.version)
    page = _table_in_german(bob, match)
    assert "alice hat sie gewonnen." in page
