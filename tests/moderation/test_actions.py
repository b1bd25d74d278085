"""The moderators' actions through their page: each needs a reason, is logged (who, what,
why, when) and shown in the player's log, closes the player's open reports, takes effect at
once and can be lifted. (The pushes to open sockets: test_pushes.py; refunds: test_refunds.)"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from lobby import services as lobby_services
from lobby.models import Challenge, PlayerEvent, PoolEntry
from lobby.moderation import reports
from lobby.moderation.models import LogEntry, Report, Sanction
from lobby.pool import service as pool_service
from tests.games.live_helpers import lobby_match
from tests.lobby.lobby_helpers import online
from tests.moderation.helpers import HTMX, open_reports, signed_in

pytestmark = pytest.mark.django_db


def _act(moderator: User, username: str, kind: str, reason: str = "seen it", **more: Any) -> Any:
    data = {"kind": kind, "topic": more.pop("topic", "rude_messages"), "reason": reason, **more}
    return signed_in(moderator).post(f"/moderation/players/{username}/act", data, follow=True)


def _lift(moderator: User, sanction: Sanction, reason: str = "appeal granted") -> Any:
    path = f"/moderation/players/{sanction.user.username}/lift/{sanction.pk}"
    return signed_in(moderator).post(path, {"reason": reason}, follow=True)


def _standing(user: User, kind: str) -> Sanction:
    return Sanction.objects.get(user=user, kind=kind, lifted_at__isnull=True)


# --- Warn ----------------------------------------------------------------------------------------

WARNED = "A moderator has warned you about: Rude messages. Please keep to the rules."


def test_a_warning_shows_on_every_page_until_acknowledged(moderator: User, alice: User) -> None:
    page = _act(moderator, "alice", "warning", "called bob names in three matches")
    assert "Done: Warning." in page.content.decode()
    client = signed_in(alice)
    for path in ("/lobby/", "/players/alice/", "/settings/", "/"):
        assert WARNED in client.get(path).content.decode(), path

    warning = _standing(alice, "warning")
    answer = client.post(f"/notices/{warning.pk}/acknowledge", **HTMX)
    assert answer.status_code == 200
    assert 'id="moderation-notice"' in answer.content.decode()
    assert WARNED not in answer.content.decode()
    assert WARNED not in client.get("/lobby/").content.decode()
    warning.refresh_from_db()
    assert warning.acknowledged_at is not None and warning.lifted_at is None


def test_it_is_acknowledged_without_javascript_too(moderator: User, alice: User) -> None:
    _act(moderator, "alice", "warning")
    warning = _standing(alice, "warning")
    answer = signed_in(alice).post(
        f"/notices/{warning.pk}/acknowledge", {"next": "/players/alice/"}
    )
    assert (answer.status_code, answer["Location"]) == (302, "/players/alice/")
    offsite = signed_in(alice).post(f"/notices/{warning.pk}/acknowledge", {"next": "//evil.test/"})
    assert offsite.status_code == 404  # acknowledged already
    assert WARNED not in signed_in(alice).get("/").content.decode()


def test_nobody_else_acknowledges_it(moderator: User, alice: User, bob: User) -> None:
    _act(moderator, "alice", "warning")
    warning = _standing(alice, "warning")
    assert signed_in(bob).post(f"/notices/{warning.pk}/acknowledge").status_code == 404
    assert WARNED in signed_in(alice).get("/").content.decode()


def test_a_warning_reaches_the_event_stream_in_the_player_s_language(
    moderator: User, alice: User
) -> None:
    alice.profile.language = "de"
    alice.profile.save()
    _act(moderator, "alice", "warning", topic="stalling")
    events = signed_in(alice).get("/api/v1/events?since=0").json()["events"]
    (event,) = [e for e in events if e["type"] == "moderation"]
    assert event["data"]["kind"] == "warning" and event["data"]["topic"] == "stalling"
    assert event["data"]["lifted"] is False
    assert event["data"]["message"].startswith("Ein Moderator hat dich verwarnt")


def test_a_lifted_warning_leaves_the_pages(moderator: User, alice: User) -> None:
    _act(moderator, "alice", "warning")
    page = _lift(moderator, _standing(alice, "warning"))
    assert "Lifted: Warning." in page.content.decode()
    assert WARNED not in signed_in(alice).get("/").content.decode()
    kinds = PlayerEvent.objects.filter(user=alice, kind="moderation")
    assert [e.payload["lifted"] for e in kinds.order_by("seq")] == [False, True]


# --- Mute ----------------------------------------------------------------------------------------


def test_a_muted_player_s_quick_messages_are_refused_at_every_door(
    moderator: User, alice: User, bob: User
) -> None:
    match = lobby_match(alice, bob)
    _act(moderator, "alice", "mute")
    client = signed_in(alice)
    page = client.post(f"/games/{match.public_id}/messages", {"message": "good_game"}, **HTMX)
    assert page.status_code == 403
    assert "A moderator has muted your quick messages." in page.content.decode()
    api = client.post(
        f"/api/v1/matches/{match.public_id}/messages",
        {"message": "good_game"},
        content_type="application/json",
    )
    assert api.status_code == 403
    assert api.json()["message"] == "A moderator has muted your quick messages."
    assert not PlayerEvent.objects.filter(kind="message").exists()
    # bob is not muted; and once lifted, alice speaks again.
    assert (
        signed_in(bob)
        .post(f"/games/{match.public_id}/messages", {"message": "thanks"}, **HTMX)
        .status_code
        == 204
    )
    _lift(moderator, _standing(alice, "mute"))
    assert (
        client.post(f"/games/{match.public_id}/messages", {"message": "oops"}, **HTMX).status_code
        == 204
    )


# --- Ban from rated play -------------------------------------------------------------------------


def test_a_ban_from_rated_play_withdraws_rated_offers_at_once(
    moderator: User, alice: User, bob: User, carol: User, django_capture_on_commit_callbacks: Any
) -> None:
    online(alice, bob, carol)
    to_bob = lobby_services.challenge(alice, bob, "standard", 100, rated=True)
    from_carol = lobby_services.challenge(carol, alice, "standard", 100, rated=True)
    casual = lobby_services.challenge(alice, carol, "classic", 100, rated=False)
    seek = lobby_services.post_seek(alice, "standard", 100, rated=True)
    before = PlayerEvent.objects.filter(user=bob, kind="challenge").count()
    with django_capture_on_commit_callbacks(execute=True):
        _act(moderator, "alice", "rated_ban", topic="rating_abuse")

    def status(item: Any) -> str:
        item.refresh_from_db()
        return str(item.status)

    assert [status(to_bob), status(from_carol), status(casual)] == [
        "cancelled",
        "cancelled",
        "open",
    ]
    assert status(seek) == "cancelled"
    # Both players of a withdrawn challenge hear of it on their streams.
    events = PlayerEvent.objects.filter(user=bob, kind="challenge").order_by("seq")
    assert events.count() == before + 1
    assert events.last().payload["status"] == "cancelled"


def test_a_ban_from_rated_play_withdraws_a_rated_place_in_the_pool(
    moderator: User, alice: User
) -> None:
    pool_service.join_pool(alice, "standard", "100", rated=True)
    _act(moderator, "alice", "rated_ban", topic="rating_abuse")
    assert not PoolEntry.objects.filter(user=alice, status="waiting").exists()


@pytest.mark.parametrize("door", ["page", "api"])
def test_a_banned_player_is_refused_rated_play_and_keeps_casual(
    door: str, moderator: User, alice: User, bob: User
) -> None:
    online(alice, bob)
    _act(moderator, "alice", "rated_ban", topic="rating_abuse")
    client = signed_in(alice)
    banned = "A moderator has suspended your rated play. You may still play casual matches."
    if door == "api":
        rated = client.post(
            "/api/v1/challenges",
            {"to": "bob", "preset": "standard", "target": 100, "rated": True},
            content_type="application/json",
        )
        assert rated.status_code == 403 and rated.json()["message"] == banned
    else:
        rated = client.post(
            "/lobby/challenges/",
            {"to": "bob", "preset": "standard", "target": "100", "rated": "on"},
            **HTMX,
        )
        assert rated.status_code == 403 and banned in rated.content.decode()
    assert not Challenge.objects.filter(rated=True).exists()
    # Bob hears only that alice cannot play rated, never why.
    online(alice, bob)
    refused = signed_in(bob).post(
        "/api/v1/challenges",
        {"to": "alice", "preset": "standard", "target": 100, "rated": True},
        content_type="application/json",
    )
    assert refused.status_code == 403 and "moderator" not in refused.json()["message"]
    casual = lobby_services.challenge(alice, bob, "standard", 100, rated=False)
    assert casual.status == "open"


def test_a_lifted_ban_lets_them_play_rated_again(moderator: User, alice: User, bob: User) -> None:
    online(alice, bob)
    _act(moderator, "alice", "rated_ban", topic="rating_abuse")
    _lift(moderator, _standing(alice, "rated_ban"))
    assert lobby_services.challenge(alice, bob, "standard", 100, rated=True).rated


# --- Ban from reporting --------------------------------------------------------------------------


def test_a_ban_from_reporting_refuses_and_closes_their_reports(
    moderator: User, alice: User, bob: User, carol: User
) -> None:
    reports.report(alice, "bob", "other", "he looked at me")
    _act(moderator, "alice", "report_ban", "ten reports of bob in a week, all empty", topic="other")
    assert not open_reports(bob)
    response = signed_in(alice).post(
        "/api/v1/players/carol/reports", {"reason": "other"}, content_type="application/json"
    )
    assert response.status_code == 403
    assert response.json()["message"] == "A moderator has stopped you from sending reports."
    assert not Report.objects.filter(reported=carol).exists()


# --- Close ---------------------------------------------------------------------------------------


def test_closing_an_account_ends_its_sessions_and_tokens_at_once(
    moderator: User, alice: User, bob: User
) -> None:
    from lobby.accounts.tokens import create

    online(alice, bob)
    seek = lobby_services.post_seek(alice, "standard", 100)
    client = signed_in(alice)
    _made, secret = create(alice, "bot")
    _act(moderator, "alice", "closure", "a farm account", topic="rating_abuse")
    alice.refresh_from_db()
    assert not alice.is_active
    assert (
        client.get("/lobby/").status_code == 200
        and "data-player" not in client.get("/lobby/").content.decode()
    )
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {secret}").status_code == 401
    seek.refresh_from_db()
    assert seek.status == "cancelled"
    assert signed_in(bob).get("/players/alice/").status_code == 404


def test_a_lifted_closure_opens_the_account_again(moderator: User, alice: User) -> None:
    _act(moderator, "alice", "closure", topic="other")
    closure = _standing(alice, "closure")
    # The closed account is still found by the moderators' page, to lift it.
    assert "closed" in signed_in(moderator).get("/moderation/players/alice/").content.decode()
    _lift(moderator, closure)
    alice.refresh_from_db()
    assert alice.is_active
    assert signed_in(alice).get("/lobby/").status_code == 200


# --- The rules of every action -------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["warning", "mute", "rated_ban", "report_ban", "closure"])
def test_every_action_is_logged_and_shown_in_the_player_s_log(
    kind: str, moderator: User, alice: User, bob: User
) -> None:
    reports.report(bob, "alice", "rude_messages")
    _act(moderator, "alice", kind, f"reason for {kind}")
    entry = LogEntry.objects.get(player=alice)
    assert (entry.moderator, entry.action, entry.reason) == (
        moderator,
        _ACTION[kind],
        f"reason for {kind}",
    )
    assert entry.created_at is not None
    assert not open_reports(alice)  # acting closes the reports
    assert Report.objects.get(reported=alice).closed_by == moderator
    html = signed_in(moderator).get("/moderation/players/alice/").content.decode()
    log = html[html.index('id="log"') :]
    assert f'data-action="{_ACTION[kind]}"' in log and f"reason for {kind}" in log and "mo" in log
    _lift(moderator, _standing(alice, kind), f"lifting {kind}")
    lifted = LogEntry.objects.get(player=alice, action="lift")
    assert (lifted.reason, lifted.details) == (f"lifting {kind}", {"kind": kind})


_ACTION = {
    "warning": "warn",
    "mute": "mute",
    "rated_ban": "rated_ban",
    "report_ban": "report_ban",
    "closure": "close",
}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"kind": "mute", "topic": "other", "reason": "   "},
            "Say why: the reason goes into the log.",
        ),
        ({"kind": "mute", "topic": "other", "reason": "x" * 501}, "Keep the reason to 500"),
        ({"kind": "mute", "topic": "ugly", "reason": "x"}, "Choose what it is about."),
        ({"kind": "shadowban", "topic": "other", "reason": "x"}, "Choose an action."),
    ],
)
def test_an_action_without_a_proper_reason_changes_nothing(
    data: dict[str, str], message: str, moderator: User, alice: User
) -> None:
    page = signed_in(moderator).post("/moderation/players/alice/act", data, follow=True)
    assert message in page.content.decode()
    assert not Sanction.objects.exists() and not LogEntry.objects.exists()


def test_a_moderator_does_not_act_on_their_own_account(moderator: User) -> None:
    page = _act(moderator, "mo", "closure")
    assert "Moderators do not act on their own account." in page.content.decode()
    moderator.refresh_from_db()
    assert moderator.is_active and not Sanction.objects.exists()


def test_the_same_sanction_twice_is_refused_and_lifting_twice_too(
    moderator: User, alice: User
) -> None:
    _act(moderator, "alice", "mute")
    again = _act(moderator, "alice", "mute")
    assert "That stands already" in again.content.decode()
    assert Sanction.objects.filter(user=alice).count() == 1
    mute = _standing(alice, "mute")
    _lift(moderator, mute)
    twice = _lift(moderator, mute)
    assert "That was lifted already." in twice.content.decode()
    assert LogEntry.objects.filter(action="lift").count() == 1


def test_dismissing_closes_the_reports_without_a_sanction(
    moderator: User, alice: User, bob: User, carol: User
) -> None:
    reports.report(bob, "alice", "stalling")
    reports.report(carol, "alice", "stalling")
    page = signed_in(moderator).post(
        "/moderation/players/alice/dismiss", {"reason": "slow, not stalling"}, follow=True
    )
    assert "The reports are closed." in page.content.decode()
    assert not open_reports(alice) and not Sanction.objects.exists()
    entry = LogEntry.objects.get(action="dismiss")
    assert (entry.reason, entry.details) == ("slow, not stalling", {"reports": 2})
    # The reporters are told nothing; they may report again.
    assert "slow, not stalling" not in signed_in(bob).get("/players/alice/").content.decode()
    assert reports.report(bob, "alice", "stalling").status == "open"
