"""A rated match ended twice at once on PostgreSQL: the player to move resigns while the
other claims the win on time. One ending wins the match's row lock, the other is refused,
and the ratings change exactly once, with one "rating" event per player."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import User
from django.db import connections

from games import services
from games.models import Match
from games.services import endings
from games.state_cache import load_state
from ginsite.lib.refusals import Refused
from lobby.events import log as event_log
from lobby.ratings.models import RatedMatch, Rating, RatingChange
from tests.distributed.test_scale_out import _needs_distributed_setup  # noqa: F401
from tests.lobby.rating_helpers import challenge_match, eligible, next_hand, play

pytestmark = [pytest.mark.distributed, pytest.mark.django_db(transaction=True)]

ROUNDS = 4


def _race(match: Match, mover: int) -> list[str]:
    """``mover`` resigns and the other seat claims, from two threads at the same moment."""
    barrier = threading.Barrier(2)
    outcomes = ["not run", "not run"]
    calls = [(services.resign, mover), (services.claim_win, 1 - mover)]

    def run(i: int) -> None:
        end, seat = calls[i]
        try:
            barrier.wait(timeout=30)
            end(match, seat, match.version)
            outcomes[i] = "ended"
        except Refused as refused:
            outcomes[i] = f"refused {refused.status}"
        except Exception as exc:  # reported by the assertion below
            outcomes[i] = repr(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_resignation_and_a_claim_at_once_rate_once(
    django_user_model: type[User], monkeypatch: pytest.MonkeyPatch, round_: int
):
    alice = django_user_model.objects.create_user(username=f"alice{round_}")
    bob = django_user_model.objects.create_user(username=f"bob{round_}")
    eligible(alice, bob)
    match = challenge_match(alice, bob)
    play(match)
    next_hand(match)  # someone is to move again, and the other may claim
    match.refresh_from_db()
    mover = load_state(match).to_act
    seqs = {u.pk: event_log.last_seq(u.pk) for u in (alice, bob)}
    monkeypatch.setattr(endings, "claimable", lambda m, seat: True)

    outcomes = _race(match, mover)

    assert sorted(outcomes) == ["ended", "refused 409"], outcomes
    match.refresh_from_db()
    assert match.status in (Match.Status.RESIGNED, Match.Status.TIMED_OUT)
    assert RatedMatch.objects.get(match=match).outcome == "rated"
    assert RatingChange.objects.filter(match=match).count() == 2
    assert sorted(Rating.objects.filter(preset="standard").values_list("games", flat=True)) == [
        1,
        1,
    ]
    winner = (alice, bob)[match.winner_seat]
    assert Rating.objects.get(user=winner).rating > 1500
    for user in (alice, bob):
        kinds = [e.kind for e in event_log.fetch(user.pk, seqs[user.pk])]
        assert kinds.count("rating") == 1
