"""Bea and the baseline: legal actions only, repeatable under a seed, hints that leak nothing."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from games.ai import LEVELS, baseline, choose, hint, player
from games.engine import PRESETS, apply, display, new_match, player_view
from games.engine.cards import ALL_CARDS

RULES = PRESETS["simple"]


def self_play(
    seed: int, move: Callable[[dict[str, Any], random.Random], dict[str, Any]]
) -> Iterator[dict[str, Any]]:
    """Every view of the seat to act, match after match, each seat playing ``move``; hands end
    and new matches are dealt as they come (a hand's end yields one seat's view too)."""
    rng = random.Random(seed)
    state = new_match(RULES, seed=seed)
    while True:
        if state.phase == "match_over":
            state = new_match(RULES, seed=rng.randrange(1 << 30))
            continue
        if state.phase == "hand_over":
            yield player_view(state, rng.randrange(2))
            state = apply(state, 0, {"type": "next_hand"})
            continue
        seat = state.to_act
        assert seat is not None
        view = player_view(state, seat)
        yield view
        state = apply(state, seat, move(view, rng))


def random_move(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    # Random play rarely knocks; knock when offered so the positions reach hand ends too.
    actions = view["legal_actions"]
    ends = [a for a in actions if a["type"] in ("knock", "gin")]
    return rng.choice(ends) if ends and rng.random() < 0.5 else rng.choice(actions)


def random_views(count: int, seed: int) -> list[dict[str, Any]]:
    """Views of the seat to act, from positions reached by random play (every phase)."""
    return list(itertools.islice(self_play(seed, random_move), count))


VIEWS = random_views(160, seed=11)


@pytest.mark.parametrize("level", LEVELS)
def test_it_only_returns_legal_actions(level: str) -> None:
    rng = random.Random(3)
    for view in VIEWS:
        assert choose(view, level, rng) in view["legal_actions"]


def test_it_has_the_levels_in_order() -> None:
    assert LEVELS[:3] == ("easy", "medium", "hard")


def test_it_rejects_an_unknown_level() -> None:
    with pytest.raises(ValueError):
        choose(VIEWS[0], "grandmaster")


def test_it_plays_the_baseline_legally() -> None:
    rng = random.Random(5)
    for view in VIEWS:
        assert baseline.choose(view, rng) in view["legal_actions"]


def test_it_deals_next_hand_when_the_hand_is_over() -> None:
    over = [v for v in VIEWS if v["phase"] == "hand_over"]
    assert over
    for view in over:
        assert choose(view) == {"type": "next_hand"}


@pytest.mark.parametrize("level", LEVELS)
def test_it_is_deterministic_under_a_seed(level: str) -> None:
    first = [choose(v, level, random.Random(42)) for v in VIEWS[:60]]
    again = [choose(v, level, random.Random(42)) for v in VIEWS[:60]]
    assert first == again
    # Without an rng the choice still repeats: it is seeded from the view.
    assert [choose(v, level) for v in VIEWS[:60]] == [choose(v, level) for v in VIEWS[:60]]


def test_it_repeats_a_player_from_its_seed() -> None:
    one, two = player("hard", seed=9), player("hard", seed=9)
    assert [one(v) for v in VIEWS[:50]] == [two(v) for v in VIEWS[:50]]


def test_it_takes_a_card_that_makes_a_meld() -> None:
    deck = list(ALL_CARDS)
    mine = ["7H", "8H", "KC", "KD", "QS", "JC", "2D", "4S", "6C", "TD"]
    theirs = ["AC", "3C", "5D", "9S", "2H", "4H", "6S", "8C", "TC", "QD"]
    rest = [c for c in deck if c not in mine + theirs + ["9H"]]
    state = new_match(RULES, deck=mine + theirs + ["9H"] + rest)
    view = player_view(state, 0)
    for level in LEVELS[1:]:
        assert choose(view, level) == {"type": "take_upcard"}
    assert baseline.choose(view, random.Random(1)) == {"type": "take_upcard"}


def _visible(view: dict[str, Any]) -> set[str]:
    seen = set(view["hand"]) | set(view["discard_pile"]) | set(view["known_opponent_cards"])
    for move in view["moves"]:
        if move.get("card"):
            seen.add(move["card"])
    return seen


def test_it_hints_a_legal_action_with_a_reason_naming_only_visible_cards() -> None:
    glyph_card = re.compile(r"(10|[2-9AJQK])([\u2663\u2666\u2665\u2660])")
    suits = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}
    for view in VIEWS:
        if not view["legal_actions"]:
            continue
        result = hint(view)
        assert result["action"] in view["legal_actions"]
        assert isinstance(result["reason"], str) and result["reason"].strip()
        assert "\n" not in result["reason"]
        visible = {display(c) for c in _visible(view)}
        for rank, suit in glyph_card.findall(result["reason"]):
            named = rank + suit
            assert named in visible, (named, result["reason"])
            assert suits[suit]


def knock_views(count: int, seed: int) -> list[dict[str, Any]]:
    """Views where the seat to act may knock (not go gin), from baseline self-play."""

    def may_knock(view: dict[str, Any]) -> bool:
        kinds = {a["type"] for a in view["legal_actions"]}
        return "knock" in kinds and "gin" not in kinds

    views = filter(may_knock, self_play(seed, baseline.choose))
    return list(itertools.islice(views, count))


KNOCKS = knock_views(30, seed=5)


def knocks_at(level: str, mine: int, theirs: int) -> int:
    """How many of the knock positions Bea knocks in, with the match score set to this."""
    count = 0
    for view in KNOCKS:
        scores = [0, 0]
        scores[view["seat"]], scores[1 - view["seat"]] = mine, theirs
        action = choose({**view, "scores": scores}, level, random.Random(1))
        count += action["type"] == "knock"
    return count


def test_the_expert_passes_up_early_knocks_to_hunt_undercuts() -> None:
    assert knocks_at("hard", 0, 0) == len(KNOCKS)
    assert knocks_at("expert", 0, 0) < len(KNOCKS) // 3


def test_the_expert_takes_a_knock_that_wins_the_match() -> None:
    assert knocks_at("expert", 99, 0) > 2 * len(KNOCKS) // 3


def test_the_expert_does_not_give_an_opponent_near_the_target_another_turn() -> None:
    assert knocks_at("expert", 0, 97) > len(KNOCKS) // 2 > knocks_at("expert", 0, 0)
