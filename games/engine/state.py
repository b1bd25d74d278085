"""Match state and the moves that change it.

A state is immutable; ``apply`` returns a new one or raises ``IllegalAction`` and leaves the old
one as it was. Every hand's deck comes from the match seed (or, for the first hand, from a deck
passed in) and, in the provably fair scheme of today, the players' seeds sent as actions, so a
match is fully determined by its rules, its seed or deck, and its actions.
"""

from __future__ import annotations

from typing import Any

from . import fair as fairness
from .cards import ALL_CARDS, INDEX, is_card, mask_of
from .deal import cut_stock, deal, hand_is_fair, shuffled_deck, start_hand, take_seed, validate_deck
from .match import MatchState, replace
from .melds import arrangement_of_mask, deadwood_of_mask, discard_deadwoods_of_mask
from .rules import IllegalAction, Ruleset, score_hand

__all__ = [
    "MatchState",
    "apply",
    "hand_is_fair",
    "legal_actions",
    "new_match",
    "settle",
    "shuffled_deck",
]

# "shuffling": a hand of the seeded scheme waits for the players' seeds before it is dealt.
PHASES = ("shuffling", "upcard_offer", "draw", "discard", "hand_over", "match_over")
ACTION_TYPES = (
    "seed",
    "take_upcard",
    "pass",
    "draw",
    "discard",
    "knock",
    "gin",
    "big_gin",
    "next_hand",
)


def new_match(
    rules: Ruleset,
    seed: int | str | None = None,
    deck: list[str] | tuple[str, ...] | None = None,
    *,
    fair: int = fairness.NONE,
    seeders: tuple[int, ...] = (0, 1),
) -> MatchState:
    """A new match, first hand dealt (seat 1 deals, seat 0 acts first).

    Every hand's shuffle derives from ``seed``; ``deck`` stacks the first hand instead
    (``deck[0:10]`` to the non-dealer, ``deck[10:20]`` to the dealer, ``deck[20]`` turned up,
    the rest the stock, top first). ``fair``, a scheme of ``games.engine.fair``: with
    ``fair.SEEDED`` each hand (after a stacked first one, from the second) waits in the
    "shuffling" phase for a ``{"type": "seed"}`` action from each seat in ``seeders``, and is
    dealt from the server seed of the hand (derived from ``seed``; "0" when only a deck is
    given) and those seeds; with ``fair.CUT`` (older matches) the deck comes from the server
    seed alone and a seat's first action of a hand may carry a ``"seed"`` that cuts the stock.
    """
    if seed is None and deck is None:
        raise ValueError("new_match needs a seed or a deck: the engine draws no randomness itself")
    if not set(seeders) <= {0, 1}:
        raise ValueError("seeders are seats: 0 and 1")
    first = validate_deck(deck) if deck is not None else None
    state = MatchState(
        rules=rules,
        seed=seed if seed is not None else 0,
        first_deck=first,
        hand_number=1,
        dealer=1,
        phase="upcard_offer",
        to_act=0,
        hands=((), ()),
        stock=(),
        discard=(),
        fair=int(fair),
        seeders=tuple(sorted(set(seeders))),
    )
    if first is not None:
        return deal(state, first)
    return start_hand(state)


# --- Reading actions --------------------------------------------------------------------------


def _card_of(action: dict[str, Any]) -> str:
    card = action.get("card")
    if not is_card(card):
        # No example card in the reason: a reason never names a card the player may not see.
        raise IllegalAction(
            f"Malformed action: {action.get('type')} needs a card code, "
            "a rank (A23456789TJQK) then a suit (CDHS)."
        )
    assert isinstance(card, str)
    return card


def _check_shape(seat: object, action: object) -> str:
    # Only the ints 0 and 1: True and 1.0 compare equal to 1 but are not seats (a float seat
    # used to pass this check and then crash indexing the hands with a TypeError).
    if type(seat) is not int or seat not in (0, 1):
        raise IllegalAction("There is no such seat: seats are 0 and 1.")
    if not isinstance(action, dict):
        raise IllegalAction("Malformed action: an action is an object with a 'type'.")
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        raise IllegalAction(f"Malformed action: unknown type {kind!r}.")
    return str(kind)


# --- Applying actions -------------------------------------------------------------------------


def apply(state: MatchState, seat: int, action: dict[str, Any]) -> MatchState:
    """Apply one seat's action and return the new state.

    Raises ``IllegalAction`` with a reason a player can read, leaving ``state`` unchanged, for
    anything the rules refuse: a malformed action, out of turn, the wrong phase, a card not held,
    the card just taken from the discard pile, a knock over the limit, a false gin.
    """
    kind = _check_shape(seat, action)
    if "seed" in action and not fairness.is_player_seed(action["seed"]):
        raise IllegalAction("A seed is 1 to 64 letters, digits, '-' or '_'.")
    if state.phase == "match_over":
        raise IllegalAction("The match is over.")
    if kind == "seed":
        return take_seed(state, seat, action)
    if state.phase == "shuffling":
        raise IllegalAction("The cards are not dealt yet: the deal waits for the players' seeds.")
    if kind == "next_hand":
        if state.phase != "hand_over":
            raise IllegalAction("The hand is still being played.")
        return _next_hand(state)
    if state.phase == "hand_over":
        raise IllegalAction("The hand is over: start the next hand.")
    if state.to_act != seat:
        raise IllegalAction("It is not your turn.")
    if "seed" in action and state.fair == fairness.CUT:
        state = cut_stock(state, seat, action["seed"])
    if state.phase == "upcard_offer":
        return _upcard_offer(state, seat, kind)
    if state.phase == "draw":
        return _draw(state, seat, kind, action)
    return _discard_phase(state, seat, kind, action)


def _moved(state: MatchState, seat: int, kind: str, **details: Any) -> dict[str, Any]:
    return {"seat": seat, "type": kind, **details}


def _upcard_offer(state: MatchState, seat: int, kind: str) -> MatchState:
    if kind == "take_upcard":
        return _take_from_discard(state, seat, "take_upcard")
    if kind != "pass":
        raise IllegalAction("Take the upcard or pass.")
    if state.upcard_passes == 0:
        return replace(
            state,
            upcard_passes=1,
            to_act=state.dealer,
            moves=(*state.moves, _moved(state, seat, "pass")),
            version=state.version + 1,
        )
    return replace(
        state,
        upcard_passes=2,
        phase="draw",
        to_act=state.non_dealer,
        stock_only=True,
        moves=(*state.moves, _moved(state, seat, "pass")),
        version=state.version + 1,
    )


def _take_from_discard(state: MatchState, seat: int, kind: str) -> MatchState:
    card = state.discard[-1]
    hands = list(state.hands)
    hands[seat] = (*hands[seat], card)
    known = list(state.known)
    known[seat] = known[seat] | {card}
    return replace(
        state,
        phase="discard",
        hands=(hands[0], hands[1]),
        discard=state.discard[:-1],
        taken_from_discard=card,
        known=(known[0], known[1]),
        stock_only=False,
        moves=(*state.moves, _moved(state, seat, kind, card=card, source="discard")),
        version=state.version + 1,
    )


def _draw(state: MatchState, seat: int, kind: str, action: dict[str, Any]) -> MatchState:
    if kind != "draw":
        raise IllegalAction("Draw a card first, from the stock or the discard pile.")
    source = action.get("from")
    if source == "discard":
        if state.stock_only:
            raise IllegalAction("Both players passed the upcard: the first draw is from the stock.")
        return _take_from_discard(state, seat, "draw")
    if source != "stock":
        raise IllegalAction("Malformed action: draw 'from' must be 'stock' or 'discard'.")
    card = state.stock[0]
    hands = list(state.hands)
    hands[seat] = (*hands[seat], card)
    return replace(
        state,
        phase="discard",
        hands=(hands[0], hands[1]),
        stock=state.stock[1:],
        taken_from_discard=None,
        stock_only=False,
        moves=(*state.moves, _moved(state, seat, "draw", card=card, source="stock")),
        version=state.version + 1,
    )


def _discard_phase(state: MatchState, seat: int, kind: str, action: dict[str, Any]) -> MatchState:
    hand = state.hands[seat]
    if kind == "big_gin":
        if not state.rules.big_gin:
            raise IllegalAction("Big Gin is not played at this table.")
        left = deadwood_of_mask(mask_of(hand))
        if left:
            raise IllegalAction(f"That is not Big Gin: {left} points of deadwood remain.")
        return _end_hand(state, seat, "big_gin", state.hands, state.discard)
    if kind not in ("discard", "knock", "gin"):
        raise IllegalAction("You have drawn: now discard, knock or go gin.")
    card = _card_of(action)
    if card not in hand:
        raise IllegalAction(f"You don't hold {card}.")
    if card == state.taken_from_discard:
        raise IllegalAction("You can't discard the card you just took from the discard pile.")
    kept = list(hand)
    kept.remove(card)
    remaining = tuple(kept)
    hands = list(state.hands)
    hands[seat] = remaining
    pile = (*state.discard, card)
    if kind in ("knock", "gin"):
        left = deadwood_of_mask(mask_of(remaining))
        if kind == "gin" and left:
            raise IllegalAction(f"That is not gin: {left} points of deadwood remain.")
        if left > state.rules.knock_limit:
            raise IllegalAction(
                f"You can't knock with {left} points of deadwood: "
                f"the limit is {state.rules.knock_limit}."
            )
        return _end_hand(
            state, seat, "gin" if left == 0 else "knock", (hands[0], hands[1]), pile, card
        )
    known = list(state.known)
    known[seat] = known[seat] - {card}
    moved = replace(
        state,
        hands=(hands[0], hands[1]),
        discard=pile,
        known=(known[0], known[1]),
        taken_from_discard=None,
        moves=(*state.moves, _moved(state, seat, "discard", card=card)),
        version=state.version + 1,
    )
    if len(state.stock) <= 2:
        return _drawn_hand(moved)
    return replace(moved, phase="draw", to_act=1 - seat)


def _end_hand(
    state: MatchState,
    seat: int,
    kind: str,
    hands: tuple[tuple[str, ...], tuple[str, ...]],
    pile: tuple[str, ...],
    card: str | None = None,
) -> MatchState:
    assert kind in ("knock", "gin", "big_gin")
    result = score_hand(
        state.rules,
        seat,
        (mask_of(hands[0]), mask_of(hands[1])),
        kind,  # type: ignore[arg-type]
    )
    result["hand_number"] = state.hand_number
    winner = result["winner"]
    scores = list(state.scores)
    scores[winner] += result["points"]
    won = list(state.hands_won)
    won[winner] += 1
    action = _moved(state, seat, kind, **({"card": card} if card else {}))
    ended = replace(
        state,
        hands=hands,
        discard=pile,
        phase="hand_over",
        to_act=None,
        taken_from_discard=None,
        scores=(scores[0], scores[1]),
        hands_won=(won[0], won[1]),
        last_hand=result,
        history=(*state.history, _summary(result)),
        moves=(*state.moves, action),
        version=state.version + 1,
    )
    if scores[winner] >= state.rules.target:
        return replace(ended, phase="match_over", settlement=settle(ended))
    return ended


def _drawn_hand(state: MatchState) -> MatchState:
    arranged = [arrangement_of_mask(mask_of(hand)) for hand in state.hands]
    result: dict[str, Any] = {
        "kind": "draw",
        "knocker": None,
        "winner": None,
        "points": 0,
        "hands": [sorted(hand, key=INDEX.__getitem__) for hand in state.hands],
        "melds": [a.melds for a in arranged],
        "layoffs": [],
        "deadwood": [a.deadwood for a in arranged],
        "deadwood_cards": [a.deadwood_cards for a in arranged],
        "hand_number": state.hand_number,
    }
    return replace(
        state,
        phase="hand_over",
        to_act=None,
        last_hand=result,
        history=(*state.history, _summary(result)),
    )


def _summary(result: dict[str, Any]) -> dict[str, Any]:
    """What the hand history keeps of a hand: no cards, so it can never reveal a later hand."""
    keys = ("hand_number", "kind", "knocker", "winner", "points", "deadwood")
    return {k: result[k] for k in keys}


def _next_hand(state: MatchState) -> MatchState:
    last = state.last_hand
    assert last is not None
    if last["kind"] == "draw":
        dealer = state.dealer
    elif state.rules.next_dealer == "winner":
        dealer = last["winner"]
    else:
        dealer = 1 - state.dealer
    number = state.hand_number + 1
    moved = replace(
        state,
        hand_number=number,
        dealer=dealer,
        version=state.version + 1,
    )
    return start_hand(moved)


def settle(state: MatchState) -> dict[str, Any]:
    """The settlement breakdown of RULES.md for a finished match."""
    rules = state.rules
    winner = 0 if state.scores[0] >= rules.target else 1
    loser = 1 - winner
    boxes = [state.hands_won[0] * rules.box_bonus, state.hands_won[1] * rules.box_bonus]
    tallies = [state.scores[0] + boxes[0], state.scores[1] + boxes[1]]
    tallies[winner] += rules.game_bonus
    shutout = state.scores[loser] == 0
    net = tallies[winner] - tallies[loser]
    doubled = shutout and rules.shutout_double
    return {
        "winner": winner,
        "loser": loser,
        "scores": list(state.scores),
        "game_bonus": rules.game_bonus,
        "box_bonus": rules.box_bonus,
        "hands_won": list(state.hands_won),
        "boxes": boxes,
        "tallies": tallies,
        "shutout": shutout,
        "doubled": doubled,
        "net": net * 2 if doubled else net,
    }


# --- What a seat may do -----------------------------------------------------------------------


def legal_actions(state: MatchState, seat: int) -> list[dict[str, Any]]:
    """Every action ``seat`` may take now, ``[]`` when it is not this seat's move."""
    if state.phase == "shuffling":
        # A template: the seat adds ``"seed"`` of its own (without it, it sends none).
        awaited = seat in state.seeders and state.seeded[seat] is None
        return [{"type": "seed"}] if awaited else []
    if state.phase == "hand_over":
        return [{"type": "next_hand"}]
    if state.to_act != seat or state.phase == "match_over":
        return []
    if state.phase == "upcard_offer":
        return [{"type": "take_upcard"}, {"type": "pass"}]
    if state.phase == "draw":
        actions = [{"type": "draw", "from": "stock"}]
        if not state.stock_only:
            actions.append({"type": "draw", "from": "discard"})
        return actions
    hand = state.hands[seat]
    mask = mask_of(hand)
    after = {ALL_CARDS[i]: dw for i, dw in discard_deadwoods_of_mask(mask)}
    choices = [c for c in hand if c != state.taken_from_discard]
    actions = [{"type": "discard", "card": c} for c in choices]
    limit = state.rules.knock_limit
    actions += [{"type": "knock", "card": c} for c in choices if 0 < after[c] <= limit]
    actions += [{"type": "gin", "card": c} for c in choices if after[c] == 0]
    if state.rules.big_gin and deadwood_of_mask(mask) == 0:
        actions.append({"type": "big_gin"})
    return actions
