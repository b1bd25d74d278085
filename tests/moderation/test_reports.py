"""Reporting a player: the rules and the limit, through the page, htmx and the API alike."""

from __future__ import annotations

from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth.models import User
from django.test import Client

from lobby.moderation.models import NOTE_MAX, Report
from tests.games.live_helpers import lobby_match
from tests.moderation.helpers import HTMX, open_reports, signed_in

pytestmark = pytest.mark.django_db

THANKS = "Thank you. A moderator will look at your report."


def _page(client: Client, username: str, **data: Any) -> Any:
    return client.post(f"/players/{username}/report/", {"reason": "rude_messages", **data})


def _api(client: Client, username: str, **body: Any) -> Any:
    payload = {"reason": "rude_messages", **body}
    return client.post(
        f"/api/v1/players/{username}/reports", payload, content_type="application/json"
    )


def test_it_takes_a_report_from_the_page_and_thanks_the_reporter(alice: User, bob: User) -> None:
    client = signed_in(alice)
    page = client.get("/players/bob/report/")
    assert page.status_code == 200
    assert "Report bob" in page.content.decode()

    response = _page(client, "bob", note="  said   rude   things ")
    assert response.status_code == 302
    assert response["Location"] == "/players/bob/"
    assert THANKS in client.get("/players/bob/").content.decode()
    (report,) = open_reports(bob)
    assert (report.reporter, report.reason, report.note) == (
        alice,
        "rude_messages",
        "said rude things",
    )


def test_it_answers_htmx_with_the_thanks_in_place(alice: User, bob: User) -> None:
    response = signed_in(alice).post("/players/bob/report/", {"reason": "stalling"}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="report-form">')
    assert THANKS in html
    assert [r.reason for r in open_reports(bob)] == ["stalling"]


def test_it_takes_a_report_from_the_api(alice: User, bob: User) -> None:
    response = _api(signed_in(alice), "bob", reason="bot", note="plays in 0.1 s every move")
    assert response.status_code == 201
    assert response.json() == {"message": THANKS}
    (report,) = open_reports(bob)
    assert (report.reason, report.note) == ("bot", "plays in 0.1 s every move")


def test_it_attaches_the_match_the_two_played(alice: User, bob: User) -> None:
    match = lobby_match(alice, bob)
    assert _page(signed_in(alice), "bob", match=match.public_id).status_code == 302
    assert open_reports(bob)[0].match == match


@pytest.mark.parametrize("door", ["page", "htmx", "api"])
def test_it_refuses_a_match_the_two_did_not_play(
    door: str, alice: User, bob: User, carol: User
) -> None:
    theirs = lobby_match(bob, carol)
    response = _send(door, signed_in(alice), "bob", match=theirs.public_id)
    assert response.status_code == 404
    assert "not one you played against bob" in response.content.decode()
    assert not Report.objects.exists()


def _send(door: str, client: Client, username: str, **data: Any) -> Any:
    if door == "api":
        return _api(client, username, **data)
    extra = HTMX if door == "htmx" else {}
    return client.post(f"/players/{username}/report/", {"reason": "rude_messages", **data}, **extra)


@pytest.mark.parametrize("door", ["page", "htmx", "api"])
def test_it_refuses_yourself(door: str, alice: User) -> None:
    response = _send(door, signed_in(alice), "alice")
    assert response.status_code in (400, 422)
    assert "You cannot report yourself." in response.content.decode()
    assert not Report.objects.exists()


@pytest.mark.parametrize("door", ["page", "api"])
def test_it_refuses_bea(door: str, alice: User) -> None:
    response = _send(door, signed_in(alice), "Bea")
    assert response.status_code in (400, 422)
    assert "Bea is the computer" in response.content.decode()
    assert not Report.objects.exists()


@pytest.mark.parametrize("door", ["page", "api"])
def test_it_does_not_know_a_closed_or_unknown_account(door: str, alice: User, bob: User) -> None:
    User.objects.filter(pk=bob.pk).update(is_active=False)
    assert _send(door, signed_in(alice), "bob").status_code == 404
    assert _send(door, signed_in(alice), "nobody").status_code == 404
    assert not Report.objects.exists()


@pytest.mark.parametrize("door", ["page", "htmx", "api"])
def test_it_needs_a_verified_address(door: str, alice: User, bob: User) -> None:
    EmailAddress.objects.filter(user=alice).update(verified=False)
    response = _send(door, signed_in(alice), "bob")
    assert response.status_code == 403
    assert "needs a verified e-mail address" in response.content.decode()
    if door == "htmx":  # only the form's region, to swap in place
        assert response.content.decode().lstrip().startswith('<div id="report-form">')
    assert not Report.objects.exists()


def test_the_page_says_so_before_the_form(alice: User, bob: User) -> None:
    EmailAddress.objects.filter(user=alice).update(verified=False)
    page = signed_in(alice).get("/players/bob/report/")
    assert page.status_code == 403
    html = page.content.decode()
    assert "needs a verified e-mail address" in html
    assert 'name="reason"' not in html


@pytest.mark.parametrize("door", ["page", "htmx", "api"])
def test_a_second_open_report_of_the_same_player_is_refused_clearly(
    door: str, alice: User, bob: User
) -> None:
    client = signed_in(alice)
    assert _send(door, client, "bob").status_code in (201, 200, 302)
    again = _send(door, client, "bob", reason="stalling", note="and stalls")
    assert again.status_code == 409
    assert "You have reported bob already: a moderator will look at it." in again.content.decode()
    (report,) = open_reports(bob)
    assert (report.reason, report.note) == ("rude_messages", "")


def test_once_closed_the_player_may_be_reported_again(alice: User, bob: User) -> None:
    client = signed_in(alice)
    assert _api(client, "bob").status_code == 201
    Report.objects.update(status=Report.Status.CLOSED)
    assert _api(client, "bob", reason="stalling").status_code == 201
    assert [r.reason for r in open_reports(bob)] == ["stalling"]


@pytest.mark.parametrize("door", ["page", "htmx", "api"])
def test_it_allows_a_few_reports_a_day(
    door: str, settings: Any, django_user_model: type[User], alice: User
) -> None:
    from tests.conftest import _make_user

    settings.REPORT_LIMIT_PER_DAY = 2
    others = [_make_user(django_user_model, f"p{n}") for n in range(3)]
    client = signed_in(alice)
    assert [_send(door, client, u.username).status_code for u in others[:2]] == [
        {"page": 302, "htmx": 200, "api": 201}[door]
    ] * 2
    third = _send(door, client, others[2].username)
    assert third.status_code == 429
    assert int(third["Retry-After"]) > 0
    assert "as many reports as you may today" in third.content.decode()
    assert not open_reports(others[2])


def test_refused_reports_do_not_use_up_the_day(settings: Any, alice: User, bob: User) -> None:
    settings.REPORT_LIMIT_PER_DAY = 1
    client = signed_in(alice)
    assert _api(client, "alice").status_code == 422
    assert _api(client, "bob", reason="nonsense").status_code == 400
    assert _api(client, "bob").status_code == 201


@pytest.mark.parametrize("door", ["page", "api"])
def test_it_bounds_the_note(door: str, alice: User, bob: User) -> None:
    response = _send(door, signed_in(alice), "bob", note="x" * (NOTE_MAX + 1))
    assert response.status_code in (400, 422)
    assert not Report.objects.exists()
    assert _send(door, signed_in(alice), "bob", note="x" * NOTE_MAX).status_code in (201, 302)


def test_the_api_refuses_unknown_reasons_and_fields(alice: User, bob: User) -> None:
    client = signed_in(alice)
    assert _api(client, "bob", reason="ugly").status_code == 400
    assert _api(client, "bob", reason="bot", urgent=True).status_code == 400
    assert _api(client, "bob", reason="bot", note=5).status_code == 400
    assert not Report.objects.exists()


def test_the_page_refuses_an_unknown_reason(alice: User, bob: User) -> None:
    response = signed_in(alice).post("/players/bob/report/", {"reason": "ugly"}, **HTMX)
    assert response.status_code == 400
    assert "Choose a reason" in response.content.decode()
    assert not Report.objects.exists()


def test_it_needs_a_signed_in_reporter(client: Client, bob: User) -> None:
    assert client.get("/players/bob/report/").status_code == 302
    assert client.post("/players/bob/report/", {"reason": "bot"}).status_code == 302
    assert _api(client, "bob").status_code == 401
    assert not Report.objects.exists()


def test_the_reported_player_never_hears_of_it(alice: User, bob: User) -> None:
    from lobby.models import PlayerEvent

    assert _api(signed_in(alice), "bob", note="alice was here").status_code == 201
    bob_client = signed_in(bob)
    for path in ("/players/bob/", "/lobby/", "/settings/", "/api/v1/players/bob", "/api/v1/me"):
        text = bob_client.get(path).content.decode()
        assert "alice was here" not in text
        assert "moderation-item" not in text
    assert not PlayerEvent.objects.filter(user=bob).exists()


def test_the_player_page_links_the_report_page(alice: User, bob: User) -> None:
    html = signed_in(alice).get("/players/bob/").content.decode()
    assert 'href="/players/bob/report/"' in html
    assert (
        'href="/players/alice/report/"'
        not in signed_in(alice).get("/players/alice/").content.decode()
    )
