"""What one seat may see: the only way match state leaves the engine."""

from __future__ import annotations

from typing import Any

from . import fair
from .cards import ALL_CARDS, INDEX, mask_of
from .melds import arrangement_of_mask, discard_deadwoods_of_mask
from .state import MatchState, hand_is_fair, legal_actions


def public_move(move: dict[str, Any], seat: int) -> dict[str, Any]:
    """A move as ``seat`` may see it: a card drawn from the stock is shown only to its drawer."""
    if move.get("source") == "stock" and move["seat"] != seat:
        return {k: v for k, v in move.items() if k != "card"}
    return dict(move)


def player_view(state: MatchState, seat: int) -> dict[str, Any]:
    """The match as ``seat`` sees it, JSON-safe.

    Holds this seat's hand, the public discard pile, counts for the stock and the opponent's
    hand, the opponent's cards known from discard-pile pick-ups, and match progress. Never the
    opponent's other cards, the stock order or the seed (at hand end both hands are public).
    """
    if seat not in (0, 1):
        raise ValueError("seat must be 0 or 1")
    opponent = 1 - seat
    hand = state.hands[seat]
    mask = mask_of(hand)
    view: dict[str, Any] = {
        "seat": seat,
        "phase": state.phase,
        "to_act": state.to_act,
        "hand": list(hand),
        "arrangement": arrangement_of_mask(mask).as_dict(),
        "discard_pile": list(state.discard),
        "stock_count": len(state.stock),
        "opponent_card_count": len(state.hands[opponent]),
        "known_opponent_cards": sorted(state.known[opponent], key=INDEX.__getitem__),
        "legal_actions": legal_actions(state, seat),
        "scores": list(state.scores),
        "hands_won": list(state.hands_won),
        "dealer": state.dealer,
        "hand_number": state.hand_number,
        "upcard_passes": state.upcard_passes,
        "stock_only": state.stock_only,
        "cannot_discard": state.taken_from_discard if state.to_act == seat else None,
        "deadwood_after_discard": None,
        "moves": [public_move(m, seat) for m in state.moves],
        **_record_of(state),
    }
    if state.phase == "discard" and state.to_act == seat:
        view["deadwood_after_discard"] = {
            ALL_CARDS[i]: dw for i, dw in discard_deadwoods_of_mask(mask)
        }
    return view


def spectator_view(state: MatchState) -> dict[str, Any]:
    """The match as a watcher sees it: public information only, neither hand until hand end
    (then ``last_hand`` lays both open, as it does for the players)."""
    return {
        "seat": None,
        "phase": state.phase,
        "to_act": state.to_act,
        "hand": [],
        "card_counts": [len(state.hands[0]), len(state.hands[1])],
        "known_cards": [sorted(state.known[s], key=INDEX.__getitem__) for s in (0, 1)],
        "discard_pile": list(state.discard),
        "stock_count": len(state.stock),
        "legal_actions": [],
        "scores": list(state.scores),
        "hands_won": list(state.hands_won),
        "dealer": state.dealer,
        "hand_number": state.hand_number,
        "upcard_passes": state.upcard_passes,
        "moves": [public_move(m, -1) for m in state.moves],
        **_record_of(state),
    }


def _record_of(state: MatchState) -> dict[str, Any]:
    """What every reader sees alike of the match's record: the last hand, the hands so far,
    the settlement, the version, the rules and this hand's shuffle."""
    return {
        "last_hand": state.last_hand,
        "history": [dict(h) for h in state.history],
        "settlement": state.settlement,
        "version": state.version,
        "rules": state.rules.as_dict(),
        "shuffle": shuffle_view(state),
    }


def shuffle_view(state: MatchState) -> dict[str, Any] | None:
    """What everyone may know of this hand's provably fair deal while it is played: the
    server's commitment, which seats have sent a seed of their own (never a seed) and, while
    the hand is shuffled, whose seed the deal still waits for. None when the hand is not
    dealt that way."""
    if not hand_is_fair(state):
        return None
    shown: dict[str, Any] = {
        "scheme": fair.SCHEMES[state.fair],
        "hand_number": state.hand_number,
        "commitment": fair.commitment(fair.server_seed(state.seed, state.hand_number)),
        # Under SEEDED "" is a seat that sent none: it has no seed of its own in the deal.
        "seeded": [bool(s) if state.fair == fair.SEEDED else s is not None for s in state.seeded],
    }
    if state.fair == fair.SEEDED:
        shown["seeders"] = list(state.seeders)
        shown["awaiting"] = [s for s in (0, 1) if state.seeded[s] is None]
    return shown
