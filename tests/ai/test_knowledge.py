"""What Bea reads from the public log: what the opponent took, threw and passed on."""

from __future__ import annotations

from games.ai import knowledge
from games.engine import PRESETS, apply, new_match, player_view
from games.engine.cards import ALL_CARDS, INDEX

MINE = ["7H", "8H", "KC", "KD", "QS", "JC", "2D", "4S", "6C", "TD"]
THEIRS = ["AC", "3C", "5D", "9S", "2H", "4H", "6S", "8C", "TC", "QD"]


def _deck() -> list[str]:
    rest = [c for c in ALL_CARDS if c not in MINE + THEIRS + ["AS"]]
    return MINE + THEIRS + ["AS"] + rest


def test_it_reads_passes_pickups_and_discards() -> None:
    state = new_match(PRESETS["simple"], deck=_deck())
    state = apply(state, 0, {"type": "pass"})
    state = apply(state, 1, {"type": "pass"})
    state = apply(state, 0, {"type": "draw", "from": "stock"})
    state = apply(state, 0, {"type": "discard", "card": "KC"})
    state = apply(state, 1, {"type": "draw", "from": "discard"})
    state = apply(state, 1, {"type": "discard", "card": "QD"})
    state = apply(state, 0, {"type": "draw", "from": "stock"})
    known = knowledge.read(player_view(state, 0))
    assert known.opp_passed == ["AS"]
    assert known.opp_took == ["KC"]
    assert known.opp_threw == ["QD"]
    assert known.we_threw == ["KC"]
    assert known.p_opp[INDEX["KC"]] == 1.0
    # Seen cards are never in the opponent's hand; the hidden ones add up to their count.
    assert known.p_opp[INDEX["QD"]] == 0.0 and known.p_opp[INDEX["7H"]] == 0.0
    hidden = sum(known.p_opp[i] for i in range(52) if known.unseen >> i & 1)
    assert abs(hidden - known.opp_hidden) < 1e-6
    # A card next to what they took is more dangerous to throw than one next to what they threw.
    assert knowledge.danger(known, INDEX["KH"]) > knowledge.danger(known, INDEX["QH"])


def test_it_finds_the_upcard_under_later_discards() -> None:
    state = new_match(PRESETS["simple"], deck=_deck())
    state = apply(state, 0, {"type": "pass"})
    state = apply(state, 1, {"type": "pass"})
    state = apply(state, 0, {"type": "draw", "from": "stock"})
    state = apply(state, 0, {"type": "discard", "card": "KC"})
    view = player_view(state, 1)
    moves = view["moves"]
    assert knowledge._initial_pile(view["discard_pile"], moves) == ["AS"]
