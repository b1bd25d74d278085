"""What moderators see: reports queued by reported player (open first, distinct reporters
counted), and on a player's page the evidence: the matches between reporter and reported,
their lengths, endings, rated outcomes (aborted too) and rating changes, the account's age
and sign-up address."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.models import Action, Match
from lobby.moderation import evidence, reports
from lobby.moderation.models import Report, SignupAddress
from tests.lobby.rating_helpers import challenge_match, play, resign
from tests.moderation.helpers import signed_in

pytestmark = pytest.mark.django_db


def _queue(moderator: User) -> str:
    return signed_in(moderator).get("/moderation/").content.decode()


def test_it_queues_open_reports_by_player_most_reporters_first(
    moderator: User, alice: User, bob: User, carol: User
) -> None:
    reports.report(carol, "alice", "stalling")
    reports.report(alice, "bob", "rude_messages")
    reports.report(carol, "bob", "bot")
    html = _queue(moderator)
    open_part = html[html.index('id="open-reports"') : html.index('id="patterns"')]
    assert open_part.index('data-reported="bob"') < open_part.index('data-reported="alice"')
    bob_row = open_part[open_part.index('data-reported="bob"') :]
    assert "2 reporters" in bob_row[: bob_row.index("</li>")]
    assert "Rude messages" in bob_row and "Uses a bot without saying so" in bob_row


def test_closed_reports_come_after_the_open_ones(
    moderator: User, alice: User, bob: User, carol: User
) -> None:
    reports.report(alice, "bob", "rude_messages")
    reports.report(alice, "carol", "stalling")
    Report.objects.filter(reported=carol).update(
        status=Report.Status.CLOSED, closed_at=timezone.now()
    )
    html = _queue(moderator)
    assert html.index('data-reported="bob"') < html.index('id="closed-reports"')
    assert html.index('id="closed-reports"') < html.index('data-reported="carol"')


def _moves(match: Match, seat: int) -> int:
    kinds = {"draw", "take_upcard", "pass", "discard", "knock", "gin", "big_gin"}
    actions = Action.objects.filter(match=match, seat=seat)
    return sum(1 for a in actions if a.payload.get("type") in kinds)


def _evidence_page(moderator: User, username: str) -> str:
    response = signed_in(moderator).get(f"/moderation/players/{username}/")
    assert response.status_code == 200
    return response.content.decode()


def test_it_shows_the_matches_between_the_two_with_their_evidence(
    moderator: User, alice: User, bob: User
) -> None:
    rated = challenge_match(alice, bob)
    play(rated)
    resign(rated, 1)  # bob resigns after the first hand: rated, alice wins
    Match.objects.filter(pk=rated.pk).update(
        finished_at=rated.created_at + timedelta(minutes=4, seconds=31)
    )
    aborted = challenge_match(alice, bob)
    resign(aborted, 0)  # alice resigns before a move: aborted, rated for nobody
    reports.report(alice, "bob", "rating_abuse", "resigns to his friends")

    html = _evidence_page(moderator, "bob")
    between = html[html.index('data-between="alice"') :]
    between = between[: between.index("</section>")]
    row = between[between.index(f'data-match="{rated.public_id}"') :]
    row = row[: row.index("</tr>")]
    assert 'data-rated="rated"' in row and "Resigned" in row and "lost" in row
    assert "0:04:31" in row
    made = [_moves(rated, seat) for seat in (1, 0)]  # bob's, alice's
    assert min(made) >= 2 and f"{made[0]}–{made[1]}" in row
    bob_change = evidence.matches_between(bob, alice)[-1].change
    assert bob_change.startswith("-") and f"{bob_change} / +" in row
    aborted_row = between[between.index(f'data-match="{aborted.public_id}"') :]
    assert 'data-rated="aborted"' in aborted_row[: aborted_row.index("</tr>")]
    assert "Aborted" in aborted_row[: aborted_row.index("</tr>")]
    assert "resigns to his friends" in html
    # The abort was alice's (she resigned before the first hand was over), not bob's.
    assert "<dd data-aborts>0</dd>" in html
    assert "<dd data-aborts>1</dd>" in _evidence_page(moderator, "alice")


def test_it_shows_the_reported_player_s_recent_rated_matches(
    moderator: User, alice: User, bob: User, carol: User
) -> None:
    with_carol = challenge_match(carol, bob)
    play(with_carol)
    resign(with_carol, 0)
    reports.report(alice, "bob", "stalling")
    html = _evidence_page(moderator, "bob")
    recent = html[html.index('id="recent"') :]
    assert f'data-match="{with_carol.public_id}"' in recent
    assert "won" in recent[recent.index(with_carol.public_id) :]


def test_it_shows_the_account_s_age_and_sign_up_address(
    moderator: User, alice: User, bob: User, carol: User
) -> None:
    User.objects.filter(pk=bob.pk).update(date_joined=timezone.now() - timedelta(days=3))
    SignupAddress.objects.create(user=bob, address="203.0.113.7")
    SignupAddress.objects.create(user=carol, address="203.0.113.7")
    SignupAddress.objects.create(user=alice, address="198.51.100.1")
    html = _evidence_page(moderator, "bob")
    assert "3\xa0days ago" in html
    assert "203.0.113.7" in html
    assert 'href="/moderation/players/carol/"' in html[html.index("203.0.113.7") :]
    assert "198.51.100.1" not in html


def _sign_up(client: Client, username: str, address: str) -> Any:
    password = "a long pass phrase"
    return client.post(
        "/accounts/signup/",
        {
            "username": username,
            "display_name": username.title(),
            "email": f"{username}@example.com",
            "password1": password,
            "password2": password,
        },
        REMOTE_ADDR=address,
    )


def test_it_keeps_the_sign_up_address_for_moderators_only(moderator: User, client: Client) -> None:
    assert _sign_up(client, "dora", "192.0.2.44").status_code == 302
    dora = User.objects.get(username="dora")
    assert SignupAddress.objects.get(user=dora).address == "192.0.2.44"
    assert "192.0.2.44" in _evidence_page(moderator, "dora")
    for path in ("/players/dora/", "/settings/", "/api/v1/me", "/api/v1/players/dora"):
        assert "192.0.2.44" not in client.get(path).content.decode(), path
