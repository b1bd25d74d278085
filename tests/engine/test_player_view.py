"""What a player may see (RULES.md: What a player may see), and the state version."""

from __future__ import annotations

import json

from games.engine import MatchState, apply, player_view
from tests.engine.helpers import deal, end_hand, hand, play, refused

P0 = "AS 2S 3S 7C 7D 7H 9H TH JH KC"
P1 = "2D 3D 4D 8C 8D 8S QH QS 5H 6H"


def start() -> MatchState:
    # 4S turned up; 5D, 6D, 9S top the stock.
    return deal(P0, P1, "4S", "5D 6D 9S")


def test_it_shows_a_seat_its_own_hand_and_only_counts_of_the_rest() -> None:
    state = start()
    for seat, mine, theirs in ((0, P0, P1), (1, P1, P0)):
        view = player_view(state, seat)
        assert view["seat"] == seat
        assert view["hand"] == hand(mine)
        assert view["opponent_card_count"] == 10
        assert view["stock_count"] == 31
        assert view["known_opponent_cards"] == []
        text = json.dumps(view)
        for card in [*hand(theirs), "5D", "6D", "9S"]:
            assert f'"{card}"' not in text


def test_it_holds_no_seed_and_no_stock_order() -> None:
    view = player_view(start(), 0)
    assert "seed" not in view
    assert "stock" not in view
    assert "first_deck" not in view
    json.dumps(view)  # JSON-safe


def test_it_shows_the_whole_discard_pile_bottom_first() -> None:
    state = play(start(), "0 pass", "1 pass", "0 draw stock", "0 discard 5D", "1 draw stock")
    state = play(state, "1 discard 6D")
    for seat in (0, 1):
        assert player_view(state, seat)["discard_pile"] == ["4S", "5D", "6D"]


def test_it_shows_the_cards_the_opponent_took_from_the_discard_pile_until_discarded() -> None:
    state = play(start(), "0 take")
    assert player_view(state, 1)["known_opponent_cards"] == ["4S"]
    assert player_view(state, 0)["known_opponent_cards"] == []
    state = play(state, "0 discard KC", "1 draw stock", "1 discard 5D", "0 draw stock")
    assert player_view(state, 1)["known_opponent_cards"] == ["4S"]
    state = play(state, "0 discard 4S")
    assert player_view(state, 1)["known_opponent_cards"] == []


def test_it_shows_a_stock_draw_only_to_its_drawer() -> None:
    state = play(start(), "0 pass", "1 pass", "0 draw stock")
    mine = player_view(state, 0)["moves"][-1]
    theirs = player_view(state, 1)["moves"][-1]
    assert mine == {"seat": 0, "type": "draw", "source": "stock", "card": "5D"}
    assert theirs == {"seat": 0, "type": "draw", "source": "stock"}
    # A discard is public.
    state = play(state, "0 discard KC")
    assert player_view(state, 1)["moves"][-1] == {"seat": 0, "type": "discard", "card": "KC"}


def test_it_shows_both_hands_melds_and_layoffs_to_both_players_at_hand_end() -> None:
    knocker, defender = "5H 6H 7H KC KD KS 2D 3D 4D AC", "3H 4H 8H 9H KH 5D AD 6C 8S 2C"
    state = end_hand("knock", knocker, defender)
    views = [player_view(state, 0), player_view(state, 1)]
    assert views[0]["last_hand"] == views[1]["last_hand"]
    last = views[1]["last_hand"]
    assert sorted(last["hands"][0]) == sorted(hand(knocker))
    assert sorted(last["hands"][1]) == sorted(hand(defender))
    assert last["layoffs"]
    assert last["melds"][0]


def test_it_lists_the_actions_of_the_seat_to_act_only() -> None:
    state = play(start(), "0 pass", "1 pass")
    assert player_view(state, 0)["legal_actions"] == [{"type": "draw", "from": "stock"}]
    assert player_view(state, 1)["legal_actions"] == []
    assert player_view(state, 0)["to_act"] == 0


def test_it_shows_the_arrangement_of_the_seats_hand() -> None:
    # AS-3S, the sevens and 9H-JH meld; KC = 10.
    arrangement = player_view(start(), 0)["arrangement"]
    assert arrangement["deadwood"] == 10
    assert arrangement["deadwood_cards"] == ["KC"]
    assert len(arrangement["melds"]) == 3


def test_it_counts_every_applied_action_in_the_version() -> None:
    state = start()
    assert player_view(state, 0)["version"] == 0
    moves = ["0 pass", "1 pass", "0 draw stock", "0 discard 5D", "1 draw discard", "1 discard QS"]
    for number, move in enumerate(moves, start=1):
        state = play(state, move)
        assert player_view(state, 0)["version"] == number
        assert player_view(state, 1)["version"] == number
    # A refused action counts for nothing.
    refused(state, 1, {"type": "pass"})
    assert state.version == len(moves)


def test_it_counts_the_knock_and_the_next_hand_in_the_version() -> None:
    state = end_hand("knock", "9H TH JH QH KH 7C 7D 7H 6C 4D", "2C 3D 4H 5S 8C 9D TC JD QS KC")
    # pass, pass, draw, knock
    assert state.version == 4
    state = apply(state, 0, {"type": "next_hand"})
    assert state.version == 5
    assert player_view(state, 1)["version"] == 5
