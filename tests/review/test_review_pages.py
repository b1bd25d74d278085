"""Bea's review beside a hand's replay, on the page and in the API, in English and German: for
the players while the match runs (each their own decisions), for its watchers once it is over,
never for a hand still in play."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client

from games import access, services
from games.engine import player_view
from games.local import play as local
from games.models import Match
from games.review import judgements
from games.review.models import HandJudgement
from games.state_cache import load_state
from tests.api.conftest import Api, token_for
from tests.engine.helpers import action
from tests.games.live_helpers import lobby_match, signed_in
from tests.games.test_replay import api_path, page
from tests.seeds import deal

from .positions import UNDERCUT, UNDERCUT_AT, UNDERCUT_DECK

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def play(match: Match, moves: tuple[str, ...]) -> None:
    for text in moves:
        seat, move = action(text)
        match.refresh_from_db()
        services.submit(match, seat, move, match.version)


@pytest.fixture
def lobby(alice: User, bob: User) -> Match:
    """Hand 1 of UNDERCUT played and over (alice knocked into bob's undercut), hand 2 dealt;
    both players agreed to hints when the match was made."""
    match = lobby_match(alice, bob, deck=UNDERCUT_DECK)
    Match.objects.filter(pk=match.pk).update(hints=True)
    match.refresh_from_db()
    play(match, UNDERCUT)
    assert load_state(match).phase == "hand_over"
    play(match, ("1 next_hand",))
    return match


def review_of(user: User, match: Match, language: str = "en") -> dict[str, Any]:
    response = Api(token_for(user)).get(api_path(match, 1), headers={"Accept-Language": language})
    assert response.status_code == 200
    return json.loads(response.content)["review"]


def test_a_player_sees_the_review_of_their_own_decisions_while_the_match_runs(
    lobby: Match, alice: User, bob: User
):
    html = signed_in(alice).get(page(lobby, 1, UNDERCUT_AT)).content.decode()
    assert "Bea's review" in html
    assert "This hand" in html and "The costliest decisions of the match" in html
    assert "Bea would have held on and thrown" in html  # beside the knock, on the board
    assert 'class="mark ' in html
    review = review_of(alice, lobby)
    assert review["status"] == "ready"
    assert {d["seat"] for d in review["decisions"]} == {0}
    knock = next(d for d in review["decisions"] if d["index"] == UNDERCUT_AT)
    assert knock["played"] == {"type": "knock", "card": "JS"}
    assert knock["bea"]["type"] == "discard" and knock["mark"] in ("mistake", "blunder")
    assert [s["seat"] for s in review["seats"]] == [0] and review["seats"][0]["accuracy"] < 100
    # Bob sees his own decisions only: no word of alice's knock.
    theirs = review_of(bob, lobby)
    assert {d["seat"] for d in theirs["decisions"]} == {1}
    assert "held on" not in signed_in(bob).get(page(lobby, 1, UNDERCUT_AT)).content.decode()


def test_a_watcher_sees_none_until_the_match_is_over(
    lobby: Match, alice: User, bob: User, carol: User
):
    html = signed_in(carol).get(page(lobby, 1, UNDERCUT_AT)).content.decode()
    assert "review is for its players where her hint is offered" in html
    assert "held on" not in html and "review-accuracy" not in html
    hidden = review_of(carol, lobby)
    assert hidden["status"] == "hidden" and not hidden["decisions"] and not hidden["seats"]
    api = Api(token_for(carol))
    assert api.get(f"/matches/{lobby.public_id}/review").status_code == 403
    lobby.refresh_from_db()
    services.resign(lobby, 1, lobby.version)
    review = review_of(carol, lobby)
    assert review["status"] == "ready" and {d["seat"] for d in review["decisions"]} == {0, 1}
    whole = json.loads(api.get(f"/matches/{lobby.public_id}/review").content)
    assert whole["complete"] and whole["hands_finished"] == 1
    assert [s["seat"] for s in whole["seats"]] == [0, 1]
    assert whole["worst"][0]["hand_number"] == 1 and whole["worst"][0]["name"] in ("alice", "bob")


def test_between_players_who_did_not_agree_to_hints_the_review_waits_for_the_end(
    lobby: Match, alice: User, bob: User
):
    # Bea's judgement of the hands so far is her help, as the hint is: not while two people
    # who did not agree to hints still play.
    Match.objects.filter(pk=lobby.pk).update(hints=False)
    lobby.refresh_from_db()
    html = signed_in(alice).get(page(lobby, 1, UNDERCUT_AT)).content.decode()
    assert "held on" not in html and "review-accuracy" not in html
    assert "when both players agreed to hints" in html
    assert review_of(alice, lobby)["status"] == "hidden"
    refused = Api(token_for(alice)).get(f"/matches/{lobby.public_id}/review")
    assert refused.status_code == 403
    assert "both players agreed to hints" in json.loads(refused.content)["message"]
    assert not HandJudgement.objects.exists()  # nothing judged for a review nobody may see
    lobby.refresh_from_db()
    services.resign(lobby, 1, lobby.version)
    review = review_of(alice, lobby)
    assert review["status"] == "ready" and {d["seat"] for d in review["decisions"]} == {0, 1}


def test_a_hand_in_play_shows_no_review(lobby: Match, alice: User):
    state = deal(lobby)
    assert state.hand_number == 2 and state.phase not in ("hand_over", "match_over")
    # Alice plays her first decision of hand 2; the hand goes on.
    view = player_view(state, state.to_act)
    play(lobby, (f"{state.to_act} {view['legal_actions'][0]['type']}",))
    client = signed_in(alice)
    assert client.get(page(lobby, 2)).status_code == 404
    assert Api(token_for(alice)).get(api_path(lobby, 2)).status_code == 404
    whole = json.loads(Api(token_for(alice)).get(f"/matches/{lobby.public_id}/review").content)
    assert whole["hands_finished"] == 1 and [h["hand_number"] for h in whole["hands"]] == [1]
    assert list(HandJudgement.objects.values_list("hand_number", flat=True)) == [1]


def test_the_review_is_in_german_for_a_german_reader(lobby: Match, alice: User):
    html = (
        signed_in(alice)
        .get(page(lobby, 1, UNDERCUT_AT), HTTP_ACCEPT_LANGUAGE="de")
        .content.decode()
    )
    assert "Beas Analyse" in html and "Diese Runde" in html
    assert "Bea hätte weitergespielt und" in html and "Prozentpunkte" in html
    knock = next(d for d in review_of(alice, lobby, "de")["decisions"] if d["index"] == UNDERCUT_AT)
    assert knock["text"].startswith(("Fehler: Bea hätte", "Patzer: Bea hätte"))
    assert "Prozentpunkte der Chance, die Partie zu gewinnen" in knock["text"]


def test_the_review_is_judged_once_and_stored(lobby: Match, alice: User, bob: User):
    assert not HandJudgement.objects.exists()
    first = review_of(alice, lobby)
    stored = HandJudgement.objects.get(match=lobby, hand_number=1)
    assert {d["seat"] for d in stored.decisions} == {0, 1}
    assert review_of(alice, lobby) == first and HandJudgement.objects.count() == 1


def test_bea_is_not_judged(alice: User):
    match = services.start_bea_match(alice, "standard", 100, "easy", replace_running=True)
    assert judgements.reviewed_seats(match) == (0,)


def test_pass_and_play_shows_both_players_to_the_device_that_owns_it(bob: User):
    match = local.start(None, "the-owner-key", "Ann", "Ben", deck=UNDERCUT_DECK)
    play(match, UNDERCUT)
    owner = Client()
    owner.cookies[access.OWNER_COOKIE] = access.key_cookie_value(
        access.OWNER_COOKIE, "the-owner-key"
    )
    html = owner.get(page(match, 1, UNDERCUT_AT)).content.decode()
    assert '<th scope="row">Ann</th>' in html and '<th scope="row">Ben</th>' in html
    assert "Bea would have held on and thrown" in html
    assert signed_in(bob).get(page(match, 1)).status_code == 404
