"""At the table, "Report" beside the opponent's name, the match attached: for the players of
a match between two people only."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import services
from games.models import Match
from tests.games.live_helpers import lobby_match
from tests.moderation.helpers import signed_in

pytestmark = pytest.mark.django_db


def _table(user: User, match: Match) -> str:
    response = signed_in(user).get(f"/games/{match.public_id}/")
    assert response.status_code == 200
    return response.content.decode()


def test_it_links_the_report_page_beside_the_opponent(alice: User, bob: User) -> None:
    match = lobby_match(alice, bob)
    link = f'href="/players/bob/report/?match={match.public_id}"'
    html = _table(alice, match)
    assert link in html
    # Beside bob's name in the scores, and nowhere beside alice's own.
    scores = html[html.index('id="scores"') :]
    assert scores.index("bob") < scores.index(link) < scores.index("</dt>", scores.index("bob"))
    assert "/players/alice/report/" not in html
    assert f'href="/players/alice/report/?match={match.public_id}"' in _table(bob, match)


def test_a_watcher_gets_no_report_link(alice: User, bob: User, carol: User) -> None:
    match = lobby_match(alice, bob)
    assert "/report/" not in _table(carol, match)


def test_there_is_no_one_to_report_at_bea_s_table(alice: User) -> None:
    match = services.start_bea_match(alice, "standard", 100, "easy")
    assert "/report/" not in _table(alice, match)
