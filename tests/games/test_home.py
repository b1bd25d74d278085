"""GET /: start a match against Bea, or resume the one in progress."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.test import Client

from .conftest import start, url

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_it_invites_visitors_to_sign_up(client: Client):
    page = client.get("/").content.decode()
    assert "/accounts/signup/" in page
    assert "Play against Bea" not in page


def test_it_offers_presets_targets_and_levels(alice: User, alice_client: Client):
    page = alice_client.get("/").content.decode()
    assert "Play against Bea" in page
    for line in ("Standard: undercut 25", "Classic: undercut 10, Big Gin 31", "Simple:"):
        assert line in page
    for target in ("50", "100", "150", "250"):
        assert f'<option value="{target}"' in page
    for level in ("easy", "medium", "hard", "expert"):
        assert f'type="radio" name="level" value="{level}"' in page
    assert "Resume your match" not in page


def test_it_offers_to_resume_the_match_in_progress(alice: User, alice_client: Client):
    match = start(alice, target=150)
    page = alice_client.get("/").content.decode()
    assert "Resume your match" in page
    assert url(match, "table") in page
    assert "playing to 150" in page
    assert "Start a new match" in page
