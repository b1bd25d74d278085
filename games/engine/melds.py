"""Melds, deadwood and laying off.

Glossary
--------
meld
    A *set* (3 or 4 cards of one rank) or a *run* (3 or more cards of one suit in sequence,
    aces low). A card belongs to at most one meld.
deadwood
    The points of the cards outside melds, always counted at the *best arrangement*: the
    disjoint melds that leave the least deadwood.
arrangement
    One choice of disjoint melds for a hand; what is left over is its deadwood.
layoff
    At a knock, a defender's unmelded card added to one of the knocker's melds: the fourth card of
    a set, or a card extending a run at either end (a laid-off card can open the next spot).

How it is fast
--------------
A hand is a 52-bit mask with each suit's thirteen cards side by side (see ``cards``). Runs never
leave their suit, so for every 13-bit suit pattern the least deadwood using runs alone is computed
once, at import (``RUN_DEADWOOD``). Sets are the only melds that cross suits, and a set needs three
cards of a rank; most hands have no such rank and their deadwood is four table look-ups. Otherwise
each way of using the candidate sets (none, the four, each three of four) is tried, and the runs
are again looked up per suit.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import NamedTuple

from .cards import ALL_CARDS, BIT, RANK_POINTS, cards_of, mask_of

SUIT_BITS = 0x1FFF


def _run_tables() -> tuple[list[int], list[tuple[int, ...]], list[int]]:
    """Least run-only deadwood for every 13-bit suit pattern, the runs that achieve it, and the
    rank best dropped from the pattern."""
    size = 1 << 13
    best = [0] * size
    picks: list[tuple[int, ...]] = [()] * size
    for pattern in range(1, size):
        low = (pattern & -pattern).bit_length() - 1
        # The lowest card is either deadwood or starts a run of length 3 or more.
        rest = pattern ^ (1 << low)
        score, pick = best[rest] + RANK_POINTS[low], picks[rest]
        run = 1 << low
        top = low + 1
        while top < 13 and pattern >> top & 1:
            run |= 1 << top
            if top - low >= 2:
                rest = pattern ^ run
                if best[rest] < score:
                    score, pick = best[rest], (run, *picks[rest])
            top += 1
        best[pattern] = score
        picks[pattern] = pick
    # The best single card to drop from a pattern: least deadwood left, then the highest rank.
    drop = [0] * size
    for pattern in range(1, size):
        held = [r for r in range(13) if pattern >> r & 1]
        drop[pattern] = max(held, key=lambda r: (-best[pattern ^ (1 << r)], r))  # noqa: B023
    return best, picks, drop


RUN_DEADWOOD, RUN_PICKS, BEST_DROP = _run_tables()


def _split(mask: int) -> tuple[int, int, int, int]:
    return (mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39)


def _triples(c: int, d: int, h: int, s: int) -> int:
    """Ranks (as a 13-bit pattern) held in at least three suits."""
    return (c & d & (h | s)) | (h & s & (c | d))


def _set_choices(suits: tuple[int, int, int, int], triples: int) -> list[tuple[int, ...]]:
    """Every way to use the possible sets: tuples of set masks (52-bit), the empty tuple first.
    They depend only on the cards of the ranks held three times or more, so each such group
    of cards is worked out once (a few thousand groups at most)."""
    key = _set_key(suits, triples)
    choices = _SET_CHOICES.get(key)
    if choices is None:
        choices = _SET_CHOICES[key] = _work_out_set_choices(suits, triples)
    return choices


def _set_unions(suits: tuple[int, int, int, int], triples: int) -> list[int]:
    """``_set_choices`` with each choice as the one mask of the cards its sets use."""
    key = _set_key(suits, triples)
    unions = _SET_UNIONS.get(key)
    if unions is None:
        unions = _SET_UNIONS[key] = [
            sum(sets)
            for sets in _set_choices(suits, triples)  # a choice's sets are disjoint
        ]
    return unions


def _set_key(suits: tuple[int, int, int, int], triples: int) -> int:
    """The cards of the ranks held three times or more: all that the set choices depend on."""
    key = 0
    for i in range(4):
        key |= (suits[i] & triples) << (13 * i)
    return key


_SET_CHOICES: dict[int, list[tuple[int, ...]]] = {}
_SET_UNIONS: dict[int, list[int]] = {}


def _work_out_set_choices(suits: tuple[int, int, int, int], triples: int) -> list[tuple[int, ...]]:
    choices: list[tuple[int, ...]] = [()]
    while triples:
        rank_bit = triples & -triples
        triples ^= rank_bit
        held = [i for i in range(4) if suits[i] & rank_bit]
        groups = [held] if len(held) == 3 else [held, *map(list, combinations(held, 3))]
        options = [sum(rank_bit << (13 * i) for i in group) for group in groups]
        choices = choices + [(*c, o) for c in choices for o in options]
    return choices


def _best(mask: int) -> tuple[int, tuple[int, ...]]:
    """Least deadwood of a mask and the sets used to reach it."""
    best_sets: tuple[int, ...]
    suits = _split(mask)
    c, d, h, s = suits
    triples = _triples(c, d, h, s)
    if not triples:
        return RUN_DEADWOOD[c] + RUN_DEADWOOD[d] + RUN_DEADWOOD[h] + RUN_DEADWOOD[s], ()
    best_score, best_sets = 1 << 30, ()
    for sets in _set_choices(suits, triples):
        rest = mask
        for meld in sets:
            rest &= ~meld
        score = (
            RUN_DEADWOOD[rest & SUIT_BITS]
            + RUN_DEADWOOD[rest >> 13 & SUIT_BITS]
            + RUN_DEADWOOD[rest >> 26 & SUIT_BITS]
            + RUN_DEADWOOD[rest >> 39]
        )
        if score < best_score:
            best_score, best_sets = score, sets
    return best_score, best_sets


def deadwood_of_mask(mask: int) -> int:
    """Least deadwood of a hand given as a mask (the hot path of the engine and the AI)."""
    c = mask & SUIT_BITS
    d = mask >> 13 & SUIT_BITS
    h = mask >> 26 & SUIT_BITS
    s = mask >> 39
    if not ((c & d & (h | s)) | (h & s & (c | d))):
        return RUN_DEADWOOD[c] + RUN_DEADWOOD[d] + RUN_DEADWOOD[h] + RUN_DEADWOOD[s]
    return _best(mask)[0]


def melds_of_mask(mask: int) -> list[int]:
    """The melds (as masks) of one best arrangement of a hand."""
    _, sets = _best(mask)
    rest = mask
    for meld in sets:
        rest &= ~meld
    melds = list(sets)
    for i in range(4):
        melds.extend(run << (13 * i) for run in RUN_PICKS[rest >> (13 * i) & SUIT_BITS])
    return melds


def discard_deadwoods_of_mask(mask: int) -> list[tuple[int, int]]:
    """For each card of a hand (usually 11), the least deadwood left after discarding it:
    ``(card index, deadwood)`` in index order."""
    c, d, h, s = suits = _split(mask)
    triples = _triples(c, d, h, s)
    out = []
    if not triples:
        # Dropping a card cannot create a set, so only that card's suit changes.
        total = RUN_DEADWOOD[c] + RUN_DEADWOOD[d] + RUN_DEADWOOD[h] + RUN_DEADWOOD[s]
        for i, pattern in enumerate(suits):
            base = total - RUN_DEADWOOD[pattern]
            offset = 13 * i
            rest = pattern
            while rest:
                low = rest & -rest
                rest ^= low
                out.append((offset + low.bit_length() - 1, base + RUN_DEADWOOD[pattern ^ low]))
        return out
    # Dropping a card only removes choices of sets: score every choice once, each drop per suit.
    best: dict[int, int] = {}
    for used in _set_unions(suits, triples):
        patterns = _split(mask & ~used)
        total = sum(RUN_DEADWOOD[p] for p in patterns)
        for i, pattern in enumerate(patterns):
            base = total - RUN_DEADWOOD[pattern]
            offset = 13 * i
            left = pattern
            while left:
                low = left & -left
                left ^= low
                index, score = offset + low.bit_length() - 1, base + RUN_DEADWOOD[pattern ^ low]
                if score < best.get(index, 1 << 30):
                    best[index] = score
    return sorted(best.items())


def best_discard_of_mask(mask: int) -> tuple[int, int]:
    """The discard that leaves the least deadwood: ``(card index, deadwood)``. Ties go to the
    highest-ranked card (it costs the most if the hand is caught); the same hand always gives
    the same card.

    Each way of using the sets (just one, no sets, for most hands) leaves four suit patterns,
    and each pattern's best drop is in the table. A card found this way scores at least as well
    as its true best, and the true best of every card is found under some choice, so the least
    score and its highest rank agree with trying every discard."""
    suits = _split(mask)
    triples = _triples(*suits)
    if not triples:
        return _best_drop_of_suits(suits, -1, 1 << 30)
    best_index, best_score = -1, 1 << 30
    for used in _set_unions(suits, triples):
        rest = _split(mask & ~used) if used else suits
        best_index, best_score = _best_drop_of_suits(rest, best_index, best_score)
    return best_index, best_score


def _best_drop_of_suits(
    suits: tuple[int, int, int, int], best_index: int, best_score: int
) -> tuple[int, int]:
    """The best single drop from four suit patterns left beside some sets (or none), if it
    beats ``(best_index, best_score)``: less deadwood left, or as little from a higher rank.
    Each pattern's best drop and what it saves come from the tables."""
    c, d, h, s = suits
    total = RUN_DEADWOOD[c] + RUN_DEADWOOD[d] + RUN_DEADWOOD[h] + RUN_DEADWOOD[s]
    for offset, pattern in ((0, c), (13, d), (26, h), (39, s)):
        if pattern:
            rank = BEST_DROP[pattern]
            score = total - DROP_SAVES[pattern]
            if score < best_score or (score == best_score and rank > best_index % 13):
                best_index, best_score = offset + rank, score
    return best_index, best_score


#: What each suit pattern's best single drop takes off its deadwood.
DROP_SAVES = [
    RUN_DEADWOOD[p] - RUN_DEADWOOD[p ^ (1 << BEST_DROP[p])] if p else 0 for p in range(1 << 13)
]


# --- Every arrangement, for the end of a hand -------------------------------------------------


def _all_runs(pattern: int) -> tuple[int, ...]:
    runs = []
    for low in range(13):
        run = 0
        for top in range(low, 13):
            if not pattern >> top & 1:
                break
            run |= 1 << top
            if top - low >= 2:
                runs.append(run)
    return tuple(runs)


#: Every run inside each 13-bit suit pattern.
RUNS_IN = [_all_runs(pattern) for pattern in range(1 << 13)]


def all_melds_of_mask(mask: int) -> list[int]:
    """Every meld contained in a hand, as masks."""
    suits = _split(mask)
    melds = [run << (13 * i) for i, pattern in enumerate(suits) for run in RUNS_IN[pattern]]
    triples = _triples(*suits)
    while triples:
        rank_bit = triples & -triples
        triples ^= rank_bit
        held = [i for i in range(4) if suits[i] & rank_bit]
        for size in (3, 4):
            for group in combinations(held, size):
                melds.append(sum(rank_bit << (13 * i) for i in group))
    return melds


def arrangements_of_mask(mask: int) -> Iterator[tuple[int, ...]]:
    """Every collection of disjoint melds in a hand (the empty one included), each once."""
    candidates = all_melds_of_mask(mask)

    def extend(undecided: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if not undecided:
            yield chosen
            return
        low = undecided & -undecided
        # The lowest undecided card is either left out of every meld ...
        yield from extend(undecided ^ low, chosen)
        # ... or lies in exactly one meld made of undecided cards.
        for meld in candidates:
            if meld & low and meld & undecided == meld:
                yield from extend(undecided & ~meld, (*chosen, meld))

    return extend(mask, ())


def is_run(meld: int) -> bool:
    """True for a run mask, False for a set mask."""
    low = (meld & -meld).bit_length() - 1
    return meld >> low & 0b111 == 0b111


def layoffs_onto(melds: tuple[int, ...] | list[int], cards: int) -> list[tuple[int, int]]:
    """The defender's cards that can be laid off onto the knocker's melds, as
    ``(card index, meld position)`` pairs. Every card that can be laid off is: runs are
    extended first (chaining both ways), then three-card sets take their fourth card."""
    free = cards
    out = []
    for position, meld in enumerate(melds):
        if not is_run(meld):
            continue
        top = meld.bit_length() - 1
        while (top + 1) % 13 and free >> (top + 1) & 1:
            top += 1
            free ^= 1 << top
            out.append((top, position))
        low = (meld & -meld).bit_length() - 1
        while low % 13 and free >> (low - 1) & 1:
            low -= 1
            free ^= 1 << low
            out.append((low, position))
    for position, meld in enumerate(melds):
        if is_run(meld) or meld.bit_count() != 3:
            continue
        rank = ((meld & -meld).bit_length() - 1) % 13
        for suit in range(4):
            bit = 1 << (13 * suit + rank)
            if free & bit:
                free ^= bit
                out.append((13 * suit + rank, position))
    return out


# --- The public, code-based face ---------------------------------------------------------------


class Arrangement(NamedTuple):
    """A best arrangement of a hand: melds as lists of codes, the rest as deadwood. (A named
    tuple, not a frozen dataclass: it is made for every hand a play-out looks at, and a frozen
    dataclass's constructor costs as much as the rest of the search.)"""

    melds: list[list[str]]
    deadwood: int
    deadwood_cards: list[str]

    def as_dict(self) -> dict[str, object]:
        return {
            "melds": [list(m) for m in self.melds],
            "deadwood": self.deadwood,
            "deadwood_cards": list(self.deadwood_cards),
        }


def arrangement_of_mask(mask: int) -> Arrangement:
    c = mask & SUIT_BITS
    d = mask >> 13 & SUIT_BITS
    h = mask >> 26 & SUIT_BITS
    s = mask >> 39
    sets: tuple[int, ...] = ()
    if (c & d & (h | s)) | (h & s & (c | d)):
        # A rank in three suits: a set may be part of the best arrangement.
        score, sets = _best(mask)
        rest = mask
        for meld in sets:
            rest &= ~meld
        c, d, h, s = _split(rest)
    else:
        score = RUN_DEADWOOD[c] + RUN_DEADWOOD[d] + RUN_DEADWOOD[h] + RUN_DEADWOOD[s]
    # Each suit's runs and loose cards as codes, from a table filled as patterns come up;
    # suit by suit, in index order, is already the order of their lowest cards.
    parts = _SUIT_PARTS
    clubs = parts[0][c] or _suit_part(0, c)
    diamonds = parts[1][d] or _suit_part(1, d)
    hearts = parts[2][h] or _suit_part(2, h)
    spades = parts[3][s] or _suit_part(3, s)
    melds = [*clubs[0], *diamonds[0], *hearts[0], *spades[0]]
    if sets:
        # Sets cross suits: every meld in the order of its lowest card.
        for meld in sets:
            melds.append(_SET_CODES.get(meld) or _set_codes(meld))
        melds.sort()
    return Arrangement(
        [list(codes) for _, codes in melds] if melds else [],
        score,
        [*clubs[1], *diamonds[1], *hearts[1], *spades[1]],
    )


# A suit's part of an arrangement: its runs (each with its lowest card's place, to sort by)
# and the cards left loose, as codes.
SuitPart = tuple[tuple[tuple[int, tuple[str, ...]], ...], tuple[str, ...]]
# For each suit and 13-bit pattern, its part once it has come up (None before).
_SUIT_PARTS: list[list[SuitPart | None]] = [[None] * (1 << 13) for _ in range(4)]


# Each set seen so far (at most 13 x 8), with its lowest card's place, as codes.
_SET_CODES: dict[int, tuple[int, tuple[str, ...]]] = {}


def _set_codes(meld: int) -> tuple[int, tuple[str, ...]]:
    codes = _SET_CODES[meld] = ((meld & -meld).bit_length(), tuple(cards_of(meld)))
    return codes


def _suit_part(suit: int, pattern: int) -> SuitPart:
    offset = 13 * suit
    melded = 0
    runs = []
    for run in RUN_PICKS[pattern]:
        melded |= run
        runs.append(((run & -run).bit_length() + offset, tuple(cards_of(run << offset))))
    part = (tuple(runs), tuple(cards_of((pattern & ~melded) << offset)))
    _SUIT_PARTS[suit][pattern] = part
    return part


def best_arrangement(cards: list[str] | tuple[str, ...]) -> Arrangement:
    """The arrangement of least deadwood for a hand of codes (any size; 10 or 11 in play)."""
    mask = 0
    for code in cards:
        mask |= BIT[code]
    return arrangement_of_mask(mask)


def deadwood(cards: list[str] | tuple[str, ...]) -> int:
    """Least deadwood of a hand of codes."""
    return deadwood_of_mask(mask_of(cards))


def best_discard(cards: list[str] | tuple[str, ...]) -> tuple[str, int]:
    """For an 11-card hand: the discard leaving the least deadwood, and that deadwood."""
    index, score = best_discard_of_mask(mask_of(cards))
    return ALL_CARDS[index], score


def discard_deadwoods(cards: list[str] | tuple[str, ...]) -> dict[str, int]:
    """For an 11-card hand: each card mapped to the deadwood left after discarding it."""
    return {ALL_CARDS[i]: score for i, score in discard_deadwoods_of_mask(mask_of(cards))}
