"""bench.table_moves reads the table as a page shows it: the position, the buttons and the
hand, from the real HTML, and picks a move the table offers."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from bench.table_moves import Page
from games import services
from games.engine import legal_actions
from games.state_cache import load_state
from tests.games.conftest import ALICE_KNOCKS, BEA_LOOSE, stacked
from tests.games.live_helpers import lobby_match, signed_in

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def _page(user: User, public_id: str) -> Page:
    page = Page("")
    page.take(signed_in(user).get(f"/games/{public_id}/").content.decode())
    return page


def test_it_picks_the_move_the_table_offers_and_the_card_that_leaves_least(alice, bob):
    match = lobby_match(alice, bob, stacked(ALICE_KNOCKS, BEA_LOOSE, "QC", "2D"))
    alice_page, bob_page = _page(alice, match.public_id), _page(bob, match.public_id)
    assert alice_page.version == 0
    assert alice_page.choice() == {"move": "pass", "version": "0"}
    assert bob_page.choice() is None  # not his turn: no button to press
    for seat, action in ((0, {"type": "pass"}), (1, {"type": "pass"})):
        services.submit(match, seat, action, match.version)
    alice_page = _page(alice, match.public_id)
    assert alice_page.choice() == {"move": "draw_stock", "version": "2"}
    services.submit(match, 0, {"type": "draw", "from": "stock"}, match.version)
    picked = _page(alice, match.public_id).choice()
    assert picked is not None and picked["move"] == "discard" and picked["version"] == "3"
    state = load_state(match)
    legal = {a.get("card") for a in legal_actions(state, 0) if a["type"] == "discard"}
    assert picked["card"] in legal
    # The card that leaves the least deadwood: her king (2 left) rather than the 2D just
    # drawn (10 left).
    assert picked["card"] == "KD"
