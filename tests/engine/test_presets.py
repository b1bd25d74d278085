"""Rule options and presets (RULES.md: Options and presets)."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import PRESETS, Ruleset

TABLE = {
    #                  standard     classic    simple
    "target": (100, 100, 100),
    "knock_limit": (10, 10, 10),
    "gin_bonus": (25, 25, 25),
    "big_gin": (False, True, False),
    "undercut_bonus": (25, 10, 25),
    "upcard_offer": (True, True, True),
    "next_dealer": ("alternate", "winner", "alternate"),
    "game_bonus": (100, 100, 0),
    "box_bonus": (25, 0, 0),
    "shutout_double": (True, True, False),
}


@pytest.mark.parametrize("option", sorted(TABLE))
def test_it_sets_each_option_of_each_preset_as_the_rules_table_says(option: str) -> None:
    actual = tuple(getattr(PRESETS[name], option) for name in ("standard", "classic", "simple"))
    assert actual == TABLE[option]


def test_it_gives_big_gin_31_where_it_is_played() -> None:
    assert PRESETS["classic"].big_gin_bonus == 31


def test_it_names_exactly_three_presets() -> None:
    assert sorted(PRESETS) == ["classic", "simple", "standard"]
    assert all(rules.name == name for name, rules in PRESETS.items())


@pytest.mark.parametrize("target", [50, 100, 150, 250])
@pytest.mark.parametrize("preset", ["standard", "classic", "simple"])
def test_it_lets_a_player_set_the_target_on_any_preset(preset: str, target: int) -> None:
    rules = dataclasses.replace(PRESETS[preset], target=target)
    assert rules.target == target
    assert dataclasses.replace(rules, target=PRESETS[preset].target) == PRESETS[preset]


def test_it_refuses_nonsense_options() -> None:
    with pytest.raises(ValueError):
        Ruleset(next_dealer="loser")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Ruleset(target=0)
    with pytest.raises(ValueError):
        Ruleset(knock_limit=-1)


def test_it_round_trips_a_ruleset_through_a_dict() -> None:
    for rules in PRESETS.values():
        assert Ruleset.from_dict(rules.as_dict()) == rules
