"""Rule options, the presets built from them, and the scoring of a finished hand."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

from .cards import ALL_CARDS, cards_of, mask_points
from .melds import arrangements_of_mask, deadwood_of_mask, is_run, layoffs_onto, melds_of_mask


class IllegalAction(Exception):  # noqa: N818 - the public name other tools import
    """An action the rules refuse. ``reason`` is a sentence a player can read; it never names
    a card the player may not see."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Ruleset:
    """Every rule option of RULES.md. Frozen: derive variants with ``dataclasses.replace``."""

    name: str = "standard"
    target: int = 100
    knock_limit: int = 10
    gin_bonus: int = 25
    big_gin: bool = False
    big_gin_bonus: int = 31
    undercut_bonus: int = 25
    upcard_offer: bool = True
    next_dealer: Literal["alternate", "winner"] = "alternate"
    game_bonus: int = 100
    box_bonus: int = 25
    shutout_double: bool = True

    def __post_init__(self) -> None:
        if self.next_dealer not in ("alternate", "winner"):
            raise ValueError("next_dealer must be 'alternate' or 'winner'")
        if self.target < 1 or self.knock_limit < 0:
            raise ValueError("target must be positive and knock_limit not negative")

    def as_dict(self) -> dict[str, Any]:
        # Every field is a plain value: no deep copy (``dataclasses.asdict``'s), which took a
        # fifth of a player's view.
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Ruleset:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


PRESETS: dict[str, Ruleset] = {
    "standard": Ruleset(name="standard"),
    "classic": Ruleset(
        name="classic",
        big_gin=True,
        big_gin_bonus=31,
        undercut_bonus=10,
        next_dealer="winner",
        box_bonus=0,
    ),
    "simple": Ruleset(
        name="simple",
        game_bonus=0,
        box_bonus=0,
        shutout_double=False,
    ),
}

HandKind = Literal["knock", "gin", "big_gin", "undercut"]


Layoffs = list[tuple[int, int]]


def _defender_best(
    knocker_melds: tuple[int, ...], defender: int
) -> tuple[int, tuple[int, ...], Layoffs]:
    """The defender's own melds and layoffs chosen together for the least deadwood left."""
    best: tuple[int, tuple[int, ...], Layoffs] = (1 << 30, (), [])
    for melds in arrangements_of_mask(defender):
        rest = defender
        for meld in melds:
            rest &= ~meld
        laid = layoffs_onto(knocker_melds, rest)
        for index, _ in laid:
            rest &= ~(1 << index)
        score = mask_points(rest)
        # On a tie, show the defender's own melds rather than layoffs.
        if score < best[0] or (score == best[0] and len(laid) < len(best[2])):
            best = (score, melds, laid)
    return best


def score_hand(
    rules: Ruleset, knocker: int, hands: tuple[int, int], kind: Literal["knock", "gin", "big_gin"]
) -> dict[str, Any]:
    """Score a hand ended by ``knocker``: melds, layoffs, deadwood, kind, points and winner.

    ``hands`` are both seats' final masks (ten cards, or eleven for the Big Gin declarer).
    """
    defender = 1 - knocker
    knocker_deadwood = deadwood_of_mask(hands[knocker])
    if knocker_deadwood == 0 and kind == "knock":
        kind = "gin"  # a knock that leaves no deadwood always counts as gin
    layoffs: Layoffs = []
    if kind == "knock":
        defender_deadwood, defender_melds, layoffs, knocker_melds = _knock_melds(
            hands[knocker], hands[defender], knocker_deadwood
        )
    else:
        knocker_melds = tuple(melds_of_mask(hands[knocker]))
        defender_melds = tuple(melds_of_mask(hands[defender]))
        defender_deadwood = deadwood_of_mask(hands[defender])
    kind_out, points = _outcome(rules, kind, knocker_deadwood, defender_deadwood)
    winner = defender if kind_out == "undercut" else knocker

    melds_by_seat: list[list[int]] = [[], []]
    melds_by_seat[knocker] = _ordered(knocker_melds)
    melds_by_seat[defender] = _ordered(defender_melds)
    # Layoffs point at the knocker's melds in their displayed order.
    position = {meld: i for i, meld in enumerate(melds_by_seat[knocker])}
    laid_mask = 0
    for index, _ in layoffs:
        laid_mask |= 1 << index
    deadwoods = [0, 0]
    deadwoods[knocker] = knocker_deadwood
    deadwoods[defender] = defender_deadwood
    deadwood_cards: list[list[str]] = [[], []]
    for seat in (0, 1):
        rest = hands[seat] & ~laid_mask if seat == defender else hands[seat]
        for meld in melds_by_seat[seat]:
            rest &= ~meld
        deadwood_cards[seat] = cards_of(rest)
    return {
        "kind": kind_out,
        "knocker": knocker,
        "winner": winner,
        "points": points,
        "hands": [cards_of(hands[0]), cards_of(hands[1])],
        "melds": [[cards_of(m) for m in melds_by_seat[s]] for s in (0, 1)],
        "layoffs": [{"card": ALL_CARDS[i], "meld": position[knocker_melds[p]]} for i, p in layoffs],
        "deadwood": deadwoods,
        "deadwood_cards": deadwood_cards,
    }


def _knock_melds(
    knocker_hand: int, defender_hand: int, knocker_deadwood: int
) -> tuple[int, tuple[int, ...], Layoffs, tuple[int, ...]]:
    """A knock's melds: among the knocker's least-deadwood arrangements, the one leaving the
    defender the most (their deadwood, melds and layoffs), and the knocker's melds."""
    chosen: tuple[int, tuple[int, ...], Layoffs, tuple[int, ...]] | None = None
    for melds in arrangements_of_mask(knocker_hand):
        rest = knocker_hand
        for meld in melds:
            rest &= ~meld
        if mask_points(rest) != knocker_deadwood:
            continue
        result = _defender_best(melds, defender_hand)
        if chosen is None or result[0] > chosen[0]:
            chosen = (*result, melds)
    assert chosen is not None
    return chosen


def _outcome(
    rules: Ruleset, kind: str, knocker_deadwood: int, defender_deadwood: int
) -> tuple[HandKind, int]:
    """How the hand counts (a knock may be undercut) and the points it scores."""
    if kind == "knock" and defender_deadwood <= knocker_deadwood:
        return "undercut", knocker_deadwood - defender_deadwood + rules.undercut_bonus
    if kind == "knock":
        return "knock", defender_deadwood - knocker_deadwood
    if kind == "gin":
        return "gin", rules.gin_bonus + defender_deadwood
    return "big_gin", rules.big_gin_bonus + defender_deadwood


def _ordered(melds: tuple[int, ...] | list[int]) -> list[int]:
    """Melds in a stable display order: runs and sets by their lowest card."""
    return sorted(melds, key=lambda m: (not is_run(m), (m & -m).bit_length()))
