"""The abuse case of Bea's review (docs/review.md): asking for the reviews of many matches to
keep the server's cores busy. Each hand never judged costs the reader's budget, at most a few
are judged per request, and at most REVIEW_AT_ONCE at once on the whole site; past any of them
the hand is not judged now (the replay still shows), and a judged hand stays free to read."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache

from games import services
from games.ai import choose
from games.engine import player_view
from games.models import Match
from games.review import budget
from games.review.models import HandJudgement
from games.state_cache import load_state
from tests.api.conftest import Api, token_for
from tests.games.live_helpers import lobby_match, signed_in
from tests.games.test_replay import DECK, api_path, first_hand, page
from tests.seeds import deal

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def shipped(settings):  # type: ignore[no-untyped-def]
    settings.REVIEW_LIMIT_PER_READER = 1
    settings.REVIEW_HANDS_PER_REQUEST = 6
    settings.REVIEW_AT_ONCE = 1
    cache.clear()  # the counts live in the cache, in a window the tests' clock holds still
    yield settings
    cache.clear()


def finished(alice: User, bob: User, *, over: bool = False) -> Match:
    """A lobby match whose first hand is over, both players having agreed to hints (so that
    each sees their own review while it runs); with ``over``, bob then resigns it."""
    match = lobby_match(alice, bob, deck=DECK)
    Match.objects.filter(pk=match.pk).update(hints=True)
    match.refresh_from_db()
    first_hand(match)
    if over:
        match.refresh_from_db()
        services.resign(match, 1, match.version)
    return match


def review(user: User, match: Match) -> dict:
    return json.loads(Api(token_for(user)).get(api_path(match, 1)).content)["review"]


def test_a_reader_past_their_budget_gets_no_new_review_but_keeps_what_was_judged(
    alice: User, bob: User
):
    one = finished(alice, bob, over=True)
    two = finished(alice, bob)
    assert review(alice, one)["status"] == "ready"
    later = review(alice, two)
    assert later["status"] == "later" and later["retry_after"] >= 1 and not later["decisions"]
    html = signed_in(alice).get(page(two, 1)).content.decode()
    assert "review of this hand is not ready" in html and "The deal:" in html
    answer = Api(token_for(alice)).get(f"/matches/{two.public_id}/review")
    assert answer.status_code == 429 and int(answer["Retry-After"]) >= 1
    assert not HandJudgement.objects.filter(match=two).exists()
    # What was judged is free to read again; bob's budget is his own.
    assert review(alice, one)["status"] == "ready"
    assert review(bob, two)["status"] == "ready"


def test_only_so_many_hands_are_judged_at_once_on_the_site(alice: User, bob: User):
    match = finished(alice, bob)
    cache.set(budget.RUNNING_KEY, 1, timeout=60)  # another process is judging a hand
    assert review(alice, match)["status"] == "later"
    assert Api(token_for(alice)).get(f"/matches/{match.public_id}/review").status_code == 429
    cache.delete(budget.RUNNING_KEY)
    assert review(bob, match)["status"] == "ready"
    assert cache.get(budget.RUNNING_KEY) == 0  # counted out again


def two_hands_over(alice: User, bob: User) -> Match:
    """A match of ``finished`` whose second hand is over too."""
    match = finished(alice, bob)
    services.submit(match, 1, {"type": "next_hand"}, match.version)
    state = deal(match)
    rng = random.Random(7)
    while state.hand_number == 2 and state.phase not in ("hand_over", "match_over"):
        seat = state.to_act
        move = choose(player_view(state, seat), "medium", rng)
        match.refresh_from_db()
        state = services.submit(match, seat, move, match.version)
    assert load_state(match).phase in ("hand_over", "match_over")
    return match


def test_one_request_judges_at_most_so_many_hands(settings, alice: User, bob: User):  # type: ignore[no-untyped-def]
    settings.REVIEW_LIMIT_PER_READER = 100
    settings.REVIEW_HANDS_PER_REQUEST = 1
    match = two_hands_over(alice, bob)
    api = Api(token_for(alice))
    first = json.loads(api.get(f"/matches/{match.public_id}/review").content)
    assert first["hands_finished"] == 2 and first["hands_reviewed"] == 1
    assert not first["complete"]
    second = json.loads(api.get(f"/matches/{match.public_id}/review").content)
    assert second["complete"] and second["hands_reviewed"] == 2


def test_a_replay_page_waits_for_its_own_hand_not_for_the_whole_match(
    settings, alice: User, bob: User
):  # type: ignore[no-untyped-def]
    settings.REVIEW_LIMIT_PER_READER = 100
    settings.REVIEW_SECONDS_PER_REQUEST = 0  # a server so busy that one hand takes it all
    match = two_hands_over(alice, bob)
    html = signed_in(alice).get(page(match, 2)).content.decode()
    # The page's own hand is judged (its review shows); the first hand waits for later.
    assert "review of this hand is not ready" not in html
    assert list(
        HandJudgement.objects.filter(match=match).values_list("hand_number", flat=True)
    ) == [2]
    api = Api(token_for(alice))
    review = json.loads(api.get(f"/matches/{match.public_id}/review").content)
    assert review["complete"] and review["hands_reviewed"] == 2


@pytest.mark.django_db(transaction=True)
def test_a_match_deleted_while_its_hand_is_judged_is_no_error(alice: User, bob: User, monkeypatch):  # type: ignore[no-untyped-def]
    """A guest's Bea match is swept and a private table removed while someone may be reading
    a replay: the judgement they waited for is shown, and nothing is stored for a match gone."""
    from games.review import judgements

    match = finished(alice, bob)
    judge_hand = judgements.judge_hand

    def judged_then_deleted(*args):  # type: ignore[no-untyped-def]
        decisions = judge_hand(*args)
        Match.objects.filter(pk=match.pk).delete()
        return decisions

    monkeypatch.setattr(judgements, "judge_hand", judged_then_deleted)
    replay = judgements.replays.replay_of(match, 1)
    decisions = judgements.decisions_of(replay, "reader")
    assert decisions and {d["seat"] for d in decisions} <= {0, 1}
    assert not HandJudgement.objects.exists()
    assert not Match.objects.filter(pk=match.pk).exists()
