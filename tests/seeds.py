"""The seeded deal in tests (docs/fairness.md): a match made on the site waits in the
"shuffling" phase for its players' seeds before each hand is dealt. Tests about something
else send them here, as the players' pages would."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import services
from games.state_cache import load_state

if TYPE_CHECKING:
    from games.engine import MatchState
    from games.models import Match

SEEDS = ("seat-0-seed", "seat-1-seed")


def deal(match: Match, seeds: tuple[str, str] = SEEDS) -> MatchState:
    """Send the seed of every seat the hand waits for (``seeds[seat]``) through the door, so
    that the hand is dealt; the match's state afterwards. Nothing when no seed is awaited."""
    match.refresh_from_db()
    state = load_state(match)
    while state.phase == "shuffling":
        seat = next(s for s in state.seeders if state.seeded[s] is None)
        state = services.submit(match, seat, {"type": "seed", "seed": seeds[seat]}, match.version)
    return state
