"""Invariants checked on many generated hands and matches (hypothesis, derandomized).

The brute force here is written independently of games.engine.melds: it lists every meld of a
hand and tries every disjoint collection of them.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    ALL_CARDS,
    PRESETS,
    IllegalAction,
    MatchState,
    Ruleset,
    apply,
    best_arrangement,
    best_discard,
    deadwood,
    discard_deadwoods,
    legal_actions,
    new_match,
    player_view,
    spectator_view,
)
from tests.engine.helpers import hand, snapshot, stacked

RANKS = "A23456789TJQK"
SUITS = "CDHS"
VALUE = {rank: min(i + 1, 10) for i, rank in enumerate(RANKS)}
CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")

FAST = settings(max_examples=60, derandomize=True, deadline=None, database=None)
MATCHES = settings(max_examples=12, derandomize=True, deadline=None, database=None)


# --- An independent brute force -----------------------------------------------------------------


def value(card: str) -> int:
    return VALUE[card[0]]


def is_meld(meld: frozenset[str]) -> bool:
    if len(meld) < 3:
        return False
    ranks = sorted(RANKS.index(card[0]) for card in meld)
    suits = {card[1] for card in meld}
    if len(set(ranks)) == 1:
        return len(meld) <= 4
    return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def every_meld(cards: list[str]) -> list[frozenset[str]]:
    melds = set()
    for size in (3, 4):
        for group in combinations(cards, size):
            if len({card[0] for card in group}) == 1:
                melds.add(frozenset(group))
    held = set(cards)
    for suit in SUITS:
        for low in range(13):
            run: list[str] = []
            for rank in RANKS[low:]:
                if rank + suit not in held:
                    break
                run.append(rank + suit)
                if len(run) >= 3:
                    melds.add(frozenset(run))
    return sorted(melds, key=sorted)


def arrangements(cards: list[str]) -> Iterator[tuple[frozenset[str], ...]]:
    """Every collection of disjoint melds, the empty one included."""
    melds = every_meld(cards)

    def extend(
        start: int, used: frozenset[str], chosen: tuple[frozenset[str], ...]
    ) -> Iterator[tuple[frozenset[str], ...]]:
        yield chosen
        for i in range(start, len(melds)):
            if not melds[i] & used:
                yield from extend(i + 1, used | melds[i], (*chosen, melds[i]))

    return extend(0, frozenset(), ())


def left_over(cards: list[str], melds: tuple[frozenset[str], ...]) -> list[str]:
    melded = set().union(*melds) if melds else set()
    return [card for card in cards if card not in melded]


def brute_deadwood(cards: list[str]) -> int:
    return min(sum(map(value, left_over(cards, melds))) for melds in arrangements(cards))


def lay_off(knocker_melds: tuple[frozenset[str], ...], cards: list[str]) -> list[str]:
    """What is left of ``cards`` once every card that fits has been laid off (repeatedly, so a
    laid-off card can open the next spot)."""
    melds = [set(meld) for meld in knocker_melds]
    left = list(cards)
    changed = True
    while changed:
        changed = False
        for card in list(left):
            for meld in melds:
                if is_meld(frozenset(meld | {card})):
                    meld.add(card)
                    left.remove(card)
                    changed = True
                    break
    return left


def brute_knock_deadwood(knocker: list[str], defender: list[str]) -> int:
    """The defender's deadwood after melding and laying off, the knocker's melds being the
    least-deadwood arrangement that leaves the defender the most."""
    least = brute_deadwood(knocker)
    outcomes = []
    for melds in arrangements(knocker):
        if sum(map(value, left_over(knocker, melds))) != least:
            continue
        outcomes.append(
            min(
                sum(map(value, lay_off(melds, left_over(defender, own))))
                for own in arrangements(defender)
            )
        )
    return max(outcomes)


# --- Hands -----------------------------------------------------------------------------------


def hands(size: int) -> st.SearchStrategy[list[str]]:
    """Uniform hands, and dense ones drawn from a few adjacent ranks (full of melds)."""
    uniform = st.lists(st.sampled_from(ALL_CARDS), min_size=size, max_size=size, unique=True)

    def window(low: int, width: int) -> st.SearchStrategy[list[str]]:
        pool = [rank + suit for rank in RANKS[low : low + width] for suit in SUITS]
        return st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True)

    dense = st.tuples(st.integers(0, 9), st.integers(4, 6)).flatmap(
        lambda lw: window(min(lw[0], 13 - lw[1]), lw[1])
    )
    return st.one_of(uniform, dense)


def test_the_brute_force_agrees_with_hand_worked_examples() -> None:
    assert brute_deadwood(hand("QS KS AS")) == 21
    assert brute_deadwood(hand("7C 7D 7H 8H 9H")) == 14
    assert brute_deadwood(hand("7C 7D 7H 7S 8S 9S")) == 0
    assert (
        brute_knock_deadwood(
            hand("9C 9D 9H 9S TS JS QS AC 2C 3H"), hand("8S 7S 2D 4D 6D 3C 5C KH QC 4H")
        )
        == 59
    )


@FAST
@given(cards=st.one_of(hands(10), hands(11)))
def test_best_arrangement_matches_a_brute_force(cards: list[str]) -> None:
    least = brute_deadwood(cards)
    assert deadwood(cards) == least
    arrangement = best_arrangement(cards)
    assert arrangement.deadwood == least
    melded: list[str] = [card for meld in arrangement.melds for card in meld]
    assert len(melded) == len(set(melded)), "melds overlap"
    assert set(melded) <= set(cards)
    assert all(is_meld(frozenset(meld)) for meld in arrangement.melds)
    assert sorted(arrangement.deadwood_cards) == sorted(set(cards) - set(melded))
    assert sum(map(value, arrangement.deadwood_cards)) == least


@FAST
@given(cards=hands(11))
def test_discard_deadwoods_and_best_discard_match_a_brute_force(cards: list[str]) -> None:
    after = {card: brute_deadwood([c for c in cards if c != card]) for card in cards}
    assert discard_deadwoods(cards) == after
    card, left = best_discard(cards)
    assert left == min(after.values())
    assert after[card] == left
    # Among equal drops the highest rank goes: it costs the most if the hand is caught.
    rank = {c: ALL_CARDS.index(c) % 13 for c in cards}
    assert rank[card] == max(rank[c] for c in cards if after[c] == left)


@settings(max_examples=150, derandomize=True, deadline=None, database=None)
@given(rng=st.randoms(use_true_random=False), width=st.integers(4, 5))
def test_knock_scoring_matches_a_brute_force(rng: random.Random, width: int) -> None:
    # Knocker and defender share a few adjacent ranks, so melds, layoffs and ties abound.
    while True:
        low = rng.randrange(14 - width)
        pool = [rank + suit for rank in RANKS[low : low + width] for suit in SUITS]
        rng.shuffle(pool)
        knocker = pool[:10]
        if brute_deadwood(knocker) <= 10:
            break
    others = [card for card in ALL_CARDS if card not in pool]
    rng.shuffle(others)
    defender = (pool[10:] + others)[:10]
    upcard, drawn = [card for card in others if card not in defender][:2]
    state = new_match(
        PRESETS["standard"], deck=stacked(" ".join(knocker), " ".join(defender), upcard, drawn)
    )
    state = apply(state, 0, {"type": "pass"})
    state = apply(state, 1, {"type": "pass"})
    state = apply(state, 0, {"type": "draw", "from": "stock"})
    state = apply(state, 0, {"type": "knock", "card": drawn})
    last = state.last_hand
    assert last is not None
    knocker_dw = brute_deadwood(knocker)
    assert last["deadwood"][0] == knocker_dw
    if knocker_dw == 0:
        assert last["kind"] == "gin"
        assert last["deadwood"][1] == brute_deadwood(defender)
        return
    defender_dw = brute_knock_deadwood(knocker, defender)
    assert last["deadwood"][1] == defender_dw
    if defender_dw > knocker_dw:
        assert (last["kind"], last["points"]) == ("knock", defender_dw - knocker_dw)
    else:
        assert (last["kind"], last["points"]) == ("undercut", knocker_dw - defender_dw + 25)
    # What is shown adds up: the knocker's melds leave its deadwood; the defender's melds,
    # layoffs and deadwood cards partition its hand.
    melds = [frozenset(meld) for meld in last["melds"][0]]
    assert all(is_meld(meld) for meld in melds)
    assert all(is_meld(frozenset(meld)) for meld in last["melds"][1])
    assert sum(map(value, left_over(knocker, tuple(melds)))) == knocker_dw
    laid = [layoff["card"] for layoff in last["layoffs"]]
    own = [card for meld in last["melds"][1] for card in meld]
    assert sorted(own + laid + last["deadwood_cards"][1]) == sorted(defender)
    assert sum(map(value, last["deadwood_cards"][1])) == defender_dw
    grown = [set(meld) for meld in melds]
    for layoff in last["layoffs"]:
        grown[layoff["meld"]].add(layoff["card"])
    assert all(is_meld(frozenset(meld)) for meld in grown)


# --- Random legal play -----------------------------------------------------------------------


def random_play(
    rules: Ruleset, seed: int, rng: random.Random, hand_limit: int | None = None
) -> Iterator[MatchState]:
    """Every state of a match played by choosing uniformly among the legal actions (either seat
    starts the next hand), until the match ends or ``hand_limit`` hands have ended."""
    state = new_match(rules, seed=seed)
    yield state
    ended = 0
    while state.phase != "match_over":
        if state.phase == "hand_over":
            ended += 1
            if hand_limit is not None and ended >= hand_limit:
                return
            state = apply(state, rng.randrange(2), {"type": "next_hand"})
        else:
            seat = state.to_act
            assert seat is not None
            state = apply(state, seat, rng.choice(legal_actions(state, seat)))
        yield state


presets = st.sampled_from(sorted(PRESETS.values(), key=lambda r: r.name))
seeds = st.integers(0, 2**32)


@settings(max_examples=8, derandomize=True, deadline=None, database=None)
@given(rules=presets, seed=seeds, chooser=seeds)
def test_random_legal_play_always_reaches_match_over(
    rules: Ruleset, seed: int, chooser: int
) -> None:
    # A hand takes at most a few dozen actions unless the players keep swapping the top of the
    # discard pile; random play ends well inside this bound (observed: under 50,000).
    bound = 300_000
    previous: MatchState | None = None
    steps = 0
    for steps, state in enumerate(random_play(rules, seed, random.Random(chooser))):  # noqa: B007
        assert steps < bound
        if previous is not None and state.hand_number != previous.hand_number:
            # The deal rotates as the rules say.
            last = previous.last_hand
            assert last is not None
            if last["kind"] == "draw":
                assert state.dealer == previous.dealer
            elif rules.next_dealer == "winner":
                assert state.dealer == last["winner"]
            else:
                assert state.dealer == 1 - previous.dealer
            assert state.to_act == 1 - state.dealer
        previous = state
    assert previous is not None and previous.phase == "match_over"
    assert max(previous.scores) >= rules.target
    assert previous.settlement is not None
    assert previous.version == steps


def conserved(state: MatchState) -> bool:
    cards = [*state.hands[0], *state.hands[1], *state.stock, *state.discard]
    return len(cards) == 52 and set(cards) == set(ALL_CARDS)


@MATCHES
@given(rules=presets, seed=seeds, chooser=seeds)
def test_the_52_cards_are_conserved_through_any_legal_play(
    rules: Ruleset, seed: int, chooser: int
) -> None:
    for state in random_play(rules, seed, random.Random(chooser), hand_limit=4):
        assert conserved(state)
        if state.phase in ("upcard_offer", "draw"):
            assert all(len(held) == 10 for held in state.hands)
        elif state.phase == "discard":
            assert len(state.hands[state.to_act or 0]) == 11


CODE_IN_JSON = re.compile(r'"([A2-9TJQK][CDHS])"')


def card_codes(value: Any) -> set[str]:
    """Every card code in a JSON-safe value, as a value or as a key."""
    return set(CODE_IN_JSON.findall(json.dumps(value)))


def secret_from(state: MatchState, seat: int) -> set[str]:
    opponent = 1 - seat
    return (set(state.hands[opponent]) - state.known[opponent]) | set(state.stock)


@MATCHES
@given(rules=presets, seed=seeds, chooser=seeds)
def test_a_player_view_never_shows_the_opponents_hidden_cards_or_the_stock(
    rules: Ruleset, seed: int, chooser: int
) -> None:
    for state in random_play(rules, seed, random.Random(chooser), hand_limit=2):
        for seat in (0, 1):
            view = player_view(state, seat)
            if state.phase in ("hand_over", "match_over"):
                view = {k: v for k, v in view.items() if k != "last_hand"}
            assert not card_codes(view) & secret_from(state, seat)
            assert "seed" not in view
        watcher = spectator_view(state)
        if state.phase in ("hand_over", "match_over"):
            watcher = {k: v for k, v in watcher.items() if k != "last_hand"}
        hidden = (
            (set(state.hands[0]) - state.known[0])
            | (set(state.hands[1]) - state.known[1])
            | set(state.stock)
        )
        assert not card_codes(watcher) & hidden


@MATCHES
@given(rules=presets, seed=seeds, chooser=seeds)
def test_no_refusal_names_a_card_the_player_cannot_see(
    rules: Ruleset, seed: int, chooser: int
) -> None:
    rng = random.Random(chooser ^ 0x5EED)
    for state in random_play(rules, seed, random.Random(chooser), hand_limit=2):
        for seat in (0, 1):
            tries: list[dict[str, Any]] = [
                {"type": "next_hand"},
                {"type": "big_gin"},
                {"type": "pass"},
                {"type": "draw", "from": rng.choice(["stock", "discard"])},
                {"type": rng.choice(["discard", "knock", "gin"]), "card": rng.choice(ALL_CARDS)},
                {"type": rng.choice(["discard", "knock", "gin"])},
            ]
            for move in tries:
                try:
                    apply(state, seat, move)
                except IllegalAction as refusal:
                    said = set(CARD.findall(refusal.reason))
                    # The card the player named may be echoed back: that tells them nothing.
                    assert not said & secret_from(state, seat) - {move.get("card")}


@MATCHES
@given(rules=presets, seed=seeds, chooser=seeds)
def test_legal_actions_are_exactly_what_apply_accepts(
    rules: Ruleset, seed: int, chooser: int
) -> None:
    for state in random_play(rules, seed, random.Random(chooser), hand_limit=2):
        for seat in (0, 1):
            listed = legal_actions(state, seat)
            candidates: list[dict[str, Any]] = [
                {"type": "take_upcard"},
                {"type": "pass"},
                {"type": "draw", "from": "stock"},
                {"type": "draw", "from": "discard"},
                {"type": "big_gin"},
                {"type": "next_hand"},
            ]
            for card in state.hands[seat]:
                candidates += [{"type": kind, "card": card} for kind in ("discard", "knock", "gin")]
            for move in candidates:
                try:
                    apply(state, seat, move)
                    accepted = True
                except IllegalAction:
                    accepted = False
                if move["type"] == "knock" and accepted and move not in listed:
                    # A knock leaving no deadwood is accepted and counts as gin; the list
                    # offers it as gin.
                    assert {"type": "gin", "card": move["card"]} in listed
                    continue
                assert accepted == (move in listed), (state.phase, seat, move)


@MATCHES
@given(rules=presets, seed=seeds, chooser=seeds)
def test_apply_never_changes_its_input(rules: Ruleset, seed: int, chooser: int) -> None:
    rng = random.Random(chooser)
    state = new_match(rules, seed=seed)
    for _ in range(150):
        if state.phase == "match_over":
            break
        before = snapshot(state)
        seat = rng.randrange(2)
        moves = legal_actions(state, seat) or [{"type": "pass"}]
        try:
            after = apply(state, seat, rng.choice(moves))
        except IllegalAction:
            after = state
        assert snapshot(state) == before
        state = after


@settings(max_examples=5, derandomize=True, deadline=None, database=None)
@given(rules=presets, seed=seeds, chooser=seeds)
def test_the_same_seed_and_moves_give_the_same_match(
    rules: Ruleset, seed: int, chooser: int
) -> None:
    first = list(random_play(rules, seed, random.Random(chooser), hand_limit=3))
    second = list(random_play(rules, seed, random.Random(chooser), hand_limit=3))
    assert len(first) == len(second)
    assert all(
        snapshot(a) == snapshot(b) and player_view(a, 0) == player_view(b, 0)
        for a, b in zip(first, second, strict=True)
    )
    other = new_match(rules, seed=seed + 1)
    assert other.hands != first[0].hands


def test_a_custom_target_is_one_option_among_the_rest() -> None:
    rules = dataclasses.replace(PRESETS["classic"], target=250)
    assert rules.target == 250
    assert rules.big_gin and rules.undercut_bonus == 10
    assert Ruleset.from_dict(rules.as_dict()) == rules
