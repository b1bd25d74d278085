"""Counter-offers: declining with the rules you would play instead, and the challenger taking
them in one click; every refusal changes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.models import Seat
from ginsite.lib import refusals
from lobby import services
from lobby.models import Block, Challenge
from tests.games.live_helpers import lobby_match
from tests.lobby.lobby_helpers import HTMX, age_challenge, go_quiet, lobby_matches, online

pytestmark = pytest.mark.django_db


@pytest.fixture
def here(alice: User, bob: User, carol: User) -> None:
    online(alice, bob, carol)


def _challenge(alice: User, bob: User) -> Challenge:
    return services.challenge(alice, bob, "standard", 100)


def _decline(client: Client, item: Challenge, reason: str = "rules", **fields: str):  # type: ignore[no-untyped-def]
    headers = HTMX if fields.pop("htmx", "") else {}
    return client.post(
        f"/lobby/challenges/{item.pk}/decline", {"reason": reason, **fields}, **headers
    )


def _countered(alice: User, bob: User, preset: str = "classic", target: int = 250) -> Challenge:
    """alice challenged bob to standard/100; bob declined, proposing ``preset`` to ``target``."""
    item = _challenge(alice, bob)
    services.decline_challenge(item, bob, "rules", services.Proposal(preset, target))
    item.refresh_from_db()
    return item


def _unchanged(item: Challenge) -> None:
    item.refresh_from_db()
    assert item.status == Challenge.Status.OPEN
    assert not Challenge.objects.filter(counter_to=item).exists()


# --- Declining with a proposal ----------------------------------------------------------------


def test_it_declines_with_a_counter_proposal(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(bob)
    before = timezone.now()
    response = _decline(client, item, preset="classic", target="250")
    assert response.status_code == 302 and response["Location"] == "/lobby/"
    item.refresh_from_db()
    assert (item.status, item.reason) == (Challenge.Status.DECLINED, "rules")
    proposal = item.counter
    assert (proposal.challenger, proposal.challenged) == (bob, alice)
    assert (proposal.preset, proposal.target, proposal.status) == ("classic", 250, "open")
    # It expires like a challenge does.
    ttl = proposal.expires_at - before
    assert services.CHALLENGE_TTL <= ttl < services.CHALLENGE_TTL + timedelta(seconds=5)


def test_it_answers_htmx_with_the_proposal_sent(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(bob)
    response = _decline(client, item, preset="classic", target="250", htmx="1")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Challenge declined. alice can accept your proposal: Classic to 250." in html
    assert "You proposed to <strong>alice</strong>: Classic to 250." in html


def test_it_offers_the_proposal_form_with_the_challenges_rules(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = services.challenge(alice, bob, "simple", 150)
    client.force_login(bob)
    html = client.get("/lobby/").content.decode()
    assert "Decline and propose" in html
    assert f'id="counter-{item.pk}-preset"' in html
    assert '<option value="simple" selected>' in html
    assert '<option value="150" selected>' in html


def test_it_keeps_what_the_proposal_leaves_out_and_names_what_it_changes(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(bob)
    # Only a target: the preset stays, and the reason says it is the target.
    _decline(client, item, reason="rules", target="50")
    item.refresh_from_db()
    assert item.reason == "target"
    assert (item.counter.preset, item.counter.target) == ("standard", 50)
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    assert "<strong>bob</strong> declined: different target, please." in html
    assert "<strong>bob</strong> would play: Standard to 50." in html


def test_it_declines_with_the_new_reason_alone(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(bob)
    assert _decline(client, item, reason="target").status_code == 302
    item.refresh_from_db()
    assert (item.status, item.reason) == ("declined", "target")
    assert not Challenge.objects.filter(counter_to=item).exists()
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    assert "declined: different target, please." in html
    assert "would play" not in html


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"preset": "turbo", "target": "100"}, "Unknown rules preset."),
        ({"preset": "classic", "target": "99"}, "The target must be one of 50, 100, 150 or 250."),
        ({"preset": "classic", "target": "lots"}, "The target must be one of"),
        ({"target": "-50"}, "The target must be one of"),
        ({"reason": "later", "preset": "classic"}, "A counter-proposal goes with"),
        ({"reason": "not_interested", "target": "50"}, "A counter-proposal goes with"),
        ({"preset": "standard", "target": "100"}, "Propose other rules than the challenge"),
        ({"reason": "rude", "preset": "classic"}, "Choose a reason"),
        ({"preset": "", "target": ""}, "A counter-proposal needs a preset or a target."),
    ],
)
def test_it_refuses_a_bad_proposal_and_changes_nothing(
    client: Client, alice: User, bob: User, here: None, fields: dict, message: str
) -> None:
    item = _challenge(alice, bob)
    client.force_login(bob)
    response = _decline(client, item, **{"reason": "rules", **fields}, htmx="1")
    assert response.status_code == 400
    assert message in response.content.decode()
    _unchanged(item)


def test_only_the_challenged_player_proposes(
    client: Client, alice: User, bob: User, carol: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(alice)
    assert _decline(client, item, preset="classic").status_code == 403
    client.force_login(carol)
    assert _decline(client, item, preset="classic").status_code == 404
    _unchanged(item)


def test_it_refuses_a_proposal_to_a_challenger_who_left(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    go_quiet(alice)
    client.force_login(bob)
    response = _decline(client, item, preset="classic", htmx="1")
    assert response.status_code == 409
    assert "alice has left the lobby." in response.content.decode()
    _unchanged(item)


def test_it_refuses_a_proposal_between_blocked_players(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    # A block made behind the services' back (the admin): the proposal is refused all the same.
    Block.objects.create(blocker=alice, blocked=bob)
    client.force_login(bob)
    response = _decline(client, item, preset="classic", htmx="1")
    # As if alice had left: the answer does not reveal the block.
    assert response.status_code == 409
    assert "alice has left the lobby." in response.content.decode()
    _unchanged(item)


# --- The challenger sees it and takes it ------------------------------------------------------


def test_the_challenger_sees_the_proposal_with_its_button(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _countered(alice, bob)
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    assert "<strong>bob</strong> declined: different rules, please." in html
    assert "<strong>bob</strong> would play: Classic to 250." in html
    assert f'action="/lobby/challenges/{item.pk}/accept-counter"' in html
    # Shown with the challenge it answers, not as a second challenge.
    assert "challenges you" not in html


def test_the_proposer_sees_it_waiting_and_may_withdraw_it(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _countered(alice, bob)
    client.force_login(bob)
    html = client.get("/lobby/").content.decode()
    assert "You proposed to <strong>alice</strong>: Classic to 250. Waiting for an answer…" in html
    assert client.post(f"/lobby/challenges/{item.counter.pk}/cancel").status_code == 302
    client.force_login(alice)
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter", **HTMX)
    assert response.status_code == 409
    assert "That proposal was withdrawn." in response.content.decode()
    assert not lobby_matches()


def test_accepting_starts_the_match_with_the_proposed_rules(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _countered(alice, bob)
    client.force_login(alice)
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter")
    (match,) = lobby_matches()
    assert response.status_code == 302
    assert response["Location"] == f"/games/{match.public_id}/"
    assert match.rules["name"] == "classic" and match.rules["target"] == 250
    seats = list(match.seats.order_by("number"))
    # The proposer plays first, as a challenger does.
    assert [s.user for s in seats] == [bob, alice]
    assert all(s.kind == Seat.Kind.PLAYER for s in seats)
    proposal = Challenge.objects.get(counter_to=item)
    assert (proposal.status, proposal.match) == (Challenge.Status.ACCEPTED, match)
    item.refresh_from_db()
    assert item.status == Challenge.Status.DECLINED


def test_accepting_redirects_htmx_to_the_match(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _countered(alice, bob, "simple", 50)
    client.force_login(alice)
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter", **HTMX)
    (match,) = lobby_matches()
    assert response["HX-Redirect"] == f"/games/{match.public_id}/"
    assert match.rules["name"] == "simple" and match.rules["target"] == 50


def test_it_keeps_the_challenges_hints(alice: User, bob: User, here: None) -> None:
    item = services.challenge(alice, bob, "standard", 100, hints=True)
    services.decline_challenge(item, bob, "target", services.Proposal(target=150))
    match = services.accept_counter(item, alice)
    assert match.hints is True and match.rules["target"] == 150


def test_it_refuses_a_second_accept(client: Client, alice: User, bob: User, here: None) -> None:
    item = _countered(alice, bob)
    client.force_login(alice)
    client.post(f"/lobby/challenges/{item.pk}/accept-counter")
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter", **HTMX)
    assert response.status_code == 409
    assert "That proposal was already accepted." in response.content.decode()
    assert len(lobby_matches()) == 1


def test_a_racing_accept_through_the_proposal_itself_loses(
    client: Client, alice: User, bob: User, here: None
) -> None:
    # The proposal is a challenge to alice: both ways in go through the one accept.
    item = _countered(alice, bob)
    client.force_login(alice)
    assert client.post(f"/lobby/challenges/{item.counter.pk}/accept").status_code == 302
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter", **HTMX)
    assert response.status_code == 409
    assert "already accepted" in response.content.decode()
    assert len(lobby_matches()) == 1


def test_it_refuses_an_expired_proposal(client: Client, alice: User, bob: User, here: None) -> None:
    item = _countered(alice, bob)
    age_challenge(item.counter)
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    assert "That proposal is no longer open." in html
    assert "accept-counter" not in html
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter", **HTMX)
    assert response.status_code == 409
    assert "That proposal has expired." in response.content.decode()
    assert not lobby_matches()


def test_it_refuses_the_wrong_player(
    client: Client, alice: User, bob: User, carol: User, here: None
) -> None:
    item = _countered(alice, bob)
    client.force_login(bob)
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter", **HTMX)
    assert response.status_code == 403
    assert "Only the challenger can accept a counter-proposal." in response.content.decode()
    # Nor may bob accept his own proposal through its own accept.
    assert client.post(f"/lobby/challenges/{item.counter.pk}/accept").status_code == 403
    client.force_login(carol)
    assert client.post(f"/lobby/challenges/{item.pk}/accept-counter").status_code == 404
    assert not lobby_matches()
    assert Challenge.objects.get(counter_to=item).status == Challenge.Status.OPEN


def test_it_refuses_a_challenge_declined_without_a_proposal(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    services.decline_challenge(item, bob, "rules")
    client.force_login(alice)
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter", **HTMX)
    assert response.status_code == 400
    assert "not declined with a counter-proposal" in response.content.decode()
    assert not lobby_matches()


def test_it_refuses_an_open_challenge_as_a_proposal(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _challenge(alice, bob)
    client.force_login(alice)
    assert client.post(f"/lobby/challenges/{item.pk}/accept-counter").status_code == 400
    item.refresh_from_db()
    assert item.status == Challenge.Status.OPEN and not lobby_matches()


def test_it_needs_a_post_and_a_sign_in(client: Client, alice: User, bob: User, here: None) -> None:
    item = _countered(alice, bob)
    url = f"/lobby/challenges/{item.pk}/accept-counter"
    assert client.post(url)["Location"].startswith("/accounts/login/")
    client.force_login(alice)
    assert client.get(url).status_code == 405
    assert not lobby_matches()


# --- Who may still play whom ------------------------------------------------------------------


def test_a_block_after_the_proposal_withdraws_it(
    client: Client, alice: User, bob: User, here: None
) -> None:
    item = _countered(alice, bob)
    services.block(alice, bob)
    client.force_login(alice)
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter", **HTMX)
    assert response.status_code == 409
    assert "That proposal was withdrawn." in response.content.decode()
    assert not lobby_matches()


@pytest.mark.parametrize(
    ("blocker", "status", "message"),
    [("alice", 403, "You have blocked bob."), ("bob", 409, "bob has left the lobby.")],
)
def test_a_block_behind_the_services_back_still_refuses(
    client: Client, alice: User, bob: User, here: None, blocker: str, status: int, message: str
) -> None:
    item = _countered(alice, bob)
    first, second = (alice, bob) if blocker == "alice" else (bob, alice)
    Block.objects.create(blocker=first, blocked=second)
    client.force_login(alice)
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter", **HTMX)
    assert response.status_code == status
    assert message in response.content.decode()
    assert not lobby_matches()
    assert Challenge.objects.get(counter_to=item).status == Challenge.Status.OPEN


def test_it_refuses_while_the_challenger_is_in_a_lobby_match(
    client: Client, alice: User, bob: User, carol: User, here: None
) -> None:
    item = _countered(alice, bob)
    lobby_match(alice, carol)
    client.force_login(alice)
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter", **HTMX)
    assert response.status_code == 409
    assert "You are in a lobby match already" in response.content.decode()
    assert len(lobby_matches()) == 1


def test_it_refuses_when_the_proposer_left(alice: User, bob: User, here: None) -> None:
    item = _countered(alice, bob)
    go_quiet(bob)
    with pytest.raises(refusals.Conflict, match="bob has left the lobby"):
        services.accept_counter(item, alice)
    assert not lobby_matches()


# --- Live: both players' lobby pages ----------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_both_lobby_pages_show_the_proposal_and_its_acceptance(
    alice: User, bob: User
) -> None:
    from tests.lobby.test_consumer import _connect, _receive_until

    alices = await _connect(alice)
    bobs = await _connect(bob)
    try:
        item = await database_sync_to_async(_challenge)(alice, bob)
        await _receive_until(bobs, "challenges you")
        await database_sync_to_async(services.decline_challenge)(
            item, bob, "rules", services.Proposal("classic")
        )
        frame = await _receive_until(alices, "would play")
        assert "<strong>bob</strong> would play: Classic to 100." in frame
        assert f"/lobby/challenges/{item.pk}/accept-counter" in frame
        frame = await _receive_until(bobs, "You proposed to")
        assert "<strong>alice</strong>: Classic to 100." in frame
        match = await database_sync_to_async(services.accept_counter)(item, alice)
        url = f"/games/{match.public_id}/"
        for socket in (alices, bobs):
            frame = await _receive_until(socket, "data-redirect")
            assert f'data-redirect="{url}"' in frame
    finally:
        await alices.disconnect()
        await bobs.disconnect()


def test_it_speaks_german_too(client: Client, alice: User, bob: User, here: None) -> None:
    item = _countered(alice, bob, "classic", 250)
    client.force_login(alice)
    client.cookies["django_language"] = "de"
    html = client.get("/lobby/").content.decode()
    assert "<strong>bob</strong> hat abgelehnt: bitte andere Regeln." in html
    assert "<strong>bob</strong> würde spielen:" in html
    assert "Annehmen und spielen" in html
    services.cancel_challenge(item.counter, bob)
    response = client.post(f"/lobby/challenges/{item.pk}/accept-counter", **HTMX)
    assert "Dieser Vorschlag wurde zurückgenommen." in response.content.decode()
