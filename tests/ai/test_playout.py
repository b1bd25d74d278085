"""The play-outs behind the expert's discards: finite, repeatable, scored from Bea's side."""

from __future__ import annotations

import random

from games.ai import bea, knowledge, playout
from games.engine import PRESETS
from games.engine.cards import BIT, mask_of

from .test_bea import VIEWS

RULES = PRESETS["simple"]
DISCARD_VIEWS = [v for v in VIEWS if v["phase"] == "discard"]


def _value(view: dict, seed: int) -> dict:
    known = knowledge.read(view)
    actions = [("discard", c) for c in view["hand"][:3] if c != view.get("cannot_discard")]
    return playout.value_actions(
        known,
        view["rules"],
        actions,
        12,
        random.Random(seed),
        bea.sample_opponent,
        bea.best_drop,
        bea._defender_deadwood,
    )


def test_it_is_deterministic_under_a_seed() -> None:
    assert DISCARD_VIEWS
    for view in DISCARD_VIEWS[:20]:
        assert _value(view, 4) == _value(view, 4)


def test_a_world_deals_the_opponent_their_count_and_the_stock_the_rest() -> None:
    for view in DISCARD_VIEWS[:20]:
        known = knowledge.read(view)
        opp, stock = playout.sample_world(known, random.Random(1), bea.sample_opponent)
        assert opp.bit_count() == view["opponent_card_count"]
        assert len(stock) == view["stock_count"]
        assert not opp & known.hand and not opp & known.pile_mask
        assert all(not b & (opp | known.hand | known.pile_mask) for b in stock)


def test_a_play_out_ends_without_a_stock() -> None:
    # Nobody can draw: the hand is a draw (the turn cap also ends cards going round the pile).
    rules = RULES.as_dict()
    me = mask_of(["AC", "2C", "5D", "6D", "9H", "TH", "KS", "QS", "4H", "8C"])
    opp = mask_of(["3C", "4C", "7D", "8D", "JH", "QH", "JS", "2S", "6H", "9C"])
    points = playout.play_out(me, opp, [], BIT["5C"], rules, bea.best_drop, bea._defender_deadwood)
    assert points == 0


def test_gin_scores_the_bonus_and_an_undercut_costs_the_knocker() -> None:
    rules = RULES.as_dict()
    gin = mask_of(["AC", "2C", "3C", "4D", "5D", "6D", "7H", "8H", "9H", "TH"])
    loose = mask_of(["KC", "QD", "JH", "9S", "8S", "6C", "4S", "2H", "TC", "KS"])
    assert playout.settle(gin, loose, rules, bea._defender_deadwood) > rules["gin_bonus"]
    knock = mask_of(["AC", "2C", "3C", "4D", "5D", "6D", "7H", "8H", "9H", "9C"])
    tight = mask_of(["JC", "JD", "JH", "QC", "QD", "QH", "KC", "KD", "KH", "AS"])
    assert playout.settle(knock, tight, rules, bea._defender_deadwood) == -(9 - 1 + 25)
