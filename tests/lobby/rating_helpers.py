"""Rated lobby matches for the ratings tests: made through the lobby's door, played through
games' door (a few moves, the first hand, or the whole match)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from allauth.account.models import EmailAddress
from django.utils import timezone

from games import services
from games.engine import best_arrangement, legal_actions
from games.models import Match
from games.state_cache import load_state
from lobby import services as lobby_services
from lobby.ratings.models import Rating
from lobby.ratings.results import MOVES_TO_RATE
from tests.seeds import deal

from .lobby_helpers import online

# What a test player does when it may not end the hand: never knock or go gin.
_PREFERRED = ("pass", "draw", "discard")
_ENDERS = ("big_gin", "gin", "knock")
OLD_ENOUGH = timedelta(days=2)


def verified(*users: Any) -> None:
    """Give each player a verified e-mail address, as rated play needs (the fixture players
    alice, bob and carol have one already)."""
    for user in users:
        EmailAddress.objects.update_or_create(
            user=user,
            email=f"{user.get_username()}@example.com",
            defaults={"verified": True, "primary": True},
        )


def eligible(*users: Any) -> None:
    """Make new accounts pass rated play's entry rules: a verified address and an account
    older than a day (the fixture players pass them already)."""
    verified(*users)
    for user in users:
        user.date_joined = timezone.now() - OLD_ENOUGH
        user.save(update_fields=["date_joined"])


def challenge_match(
    one: Any, two: Any, *, rated: bool = True, preset: str = "standard", target: int = 250
) -> Match:
    """``one`` challenges ``two`` (rated or casual) and ``two`` accepts: the match, ``one`` in
    seat 0. Up to 250 by default: no single hand ends it, so a test can play one and resign."""
    online(one, two)
    made = lobby_services.challenge(one, two, preset, target, rated=rated)
    return lobby_services.accept_challenge(made, two)


def play_moves(match: Match, moves_each: int = 2) -> None:
    """Deal, then play until both seats have made ``moves_each`` moves at the cards, never
    ending the hand."""
    deal(match)
    made = [0, 0]
    while min(made) < moves_each:
        state = state_of(match)
        seat = state.to_act
        legal = legal_actions(state, seat)
        action = next(a for kind in _PREFERRED for a in legal if a["type"] == kind)
        services.submit(match, seat, action, match.version)
        made[seat] += 1


def play(match: Match) -> None:
    """Deal and play the first hand to its end (both seats keep their deadwood low and end the
    hand once each has made two moves): after it, a resignation is a rated result."""
    deal(match)
    made = [0, 0]
    while state_of(match).phase not in ("hand_over", "match_over"):
        state = state_of(match)
        seat = state.to_act
        action = choose(state, seat, ends=min(made) >= 2, low=True)
        services.submit(match, seat, action, match.version)
        made[seat] += 1


def next_hand(match: Match) -> None:
    """After a hand is over: the next one, dealt."""
    match.refresh_from_db()
    services.submit(match, 0, {"type": "next_hand"}, match.version)
    deal(match)


def play_out(match: Match, winner: int) -> None:
    """Play the match to its end, hand after hand: seat ``winner`` keeps its deadwood low and
    knocks or goes gin when it can; the other keeps its deadwood high and never ends a hand,
    so it is never the one to score (no undercut: its deadwood stays far above 10). The winner
    ends no hand before both have made the moves a rated match needs: a first hand that could
    end at once (and a match to 50 in one hand) would be aborted, not rated."""
    made = [0, 0]
    while True:
        state = state_of(match)
        if state.phase == "match_over":
            return
        if state.phase == "shuffling":
            deal(match)
        elif state.phase == "hand_over":
            services.submit(match, 0, {"type": "next_hand"}, match.version)
        else:
            seat = state.to_act
            ends = seat == winner and min(made) >= MOVES_TO_RATE
            action = choose(state, seat, ends=ends, low=seat == winner)
            services.submit(match, seat, action, match.version)
            made[seat] += 1


def choose(state: Any, seat: int, *, ends: bool, low: bool) -> dict[str, Any]:
    """A plain player's move: end the hand if ``ends`` and it may; else pass the upcard, draw
    from the stock and discard so as to keep the deadwood as low (``low``) or high as it goes."""
    legal = legal_actions(state, seat)
    for kind in (_ENDERS if ends else ()) + ("pass",):
        for action in legal:
            if action["type"] == kind:
                return action
    if {"type": "draw", "from": "stock"} in legal:
        return {"type": "draw", "from": "stock"}
    hand = list(state.hands[seat])
    discards = [a for a in legal if a["type"] == "discard"]

    def left(action: dict[str, Any]) -> int:
        return best_arrangement([c for c in hand if c != action["card"]]).deadwood

    return min(discards, key=left) if low else max(discards, key=left)


def state_of(match: Match) -> Any:
    match.refresh_from_db()
    return load_state(match)


def resign(match: Match, seat: int) -> None:
    match.refresh_from_db()
    services.resign(match, seat, match.version)


def rating(user: Any, preset: str = "standard") -> Rating | None:
    return Rating.objects.filter(user=user, preset=preset).first()


def rated_history(user: Any, opponent: Any, results: list[float], preset: str = "standard") -> None:
    """Store ``user``'s rated results against ``opponent`` (1 won, 0 lost) through Glicko-2,
    as if played, without playing them: for the chart and the leaderboards."""
    from django.db import transaction

    from lobby.ratings import glicko
    from lobby.ratings.models import RatingChange
    from tests.games.live_helpers import lobby_match

    for score in results:
        with transaction.atomic():
            row, _ = Rating.objects.get_or_create(user=user, preset=preset)
            other, _ = Rating.objects.get_or_create(user=opponent, preset=preset)
            me = glicko.Glicko(row.rating, row.rd, row.volatility)
            them = glicko.Glicko(other.rating, other.rd, other.volatility)
            new = glicko.after_match(me, them, score)
            match = lobby_match(user, opponent)
            Match.objects.filter(pk=match.pk).update(status=Match.Status.RESIGNED)
            RatingChange.objects.create(
                user=user,
                opponent=opponent,
                match=match,
                preset=preset,
                score=score,
                before=row.rating,
                after=new.rating,
                rd_after=new.rd,
            )
            row.rating, row.rd, row.volatility = new
            row.games += 1
            row.save()
