"""Rated lobby matches for the ratings tests: made through the lobby's door, played a few
moves through games' door."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress

from games import services
from games.engine import legal_actions
from games.models import Match
from games.state_cache import load_state
from lobby import services as lobby_services
from lobby.ratings.models import Rating
from tests.seeds import deal

from .lobby_helpers import online

# What a test player does when it may: never end the hand (no knock, no gin).
_PREFERRED = ("pass", "draw", "discard")


def verified(*users: Any) -> None:
    """Give each player a verified e-mail address, as rated play needs (the fixture players
    alice, bob and carol have one already)."""
    for user in users:
        EmailAddress.objects.update_or_create(
            user=user,
            email=f"{user.get_username()}@example.com",
            defaults={"verified": True, "primary": True},
        )


def challenge_match(one: Any, two: Any, *, rated: bool = True, preset: str = "standard") -> Match:
    """``one`` challenges ``two`` (rated or casual) and ``two`` accepts: the match."""
    online(one, two)
    made = lobby_services.challenge(one, two, preset, 100, rated=rated)
    return lobby_services.accept_challenge(made, two)


def play(match: Match, moves_each: int = 2) -> None:
    """Deal, then play until both seats have made ``moves_each`` moves at the cards."""
    deal(match)
    made = [0, 0]
    while min(made) < moves_each:
        match.refresh_from_db()
        state = load_state(match)
        seat = state.to_act
        legal = legal_actions(state, seat)
        action = next(a for kind in _PREFERRED for a in legal if a["type"] == kind)
        services.submit(match, seat, action, match.version)
        made[seat] += 1


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
