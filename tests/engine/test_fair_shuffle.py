"""The provably fair deal (docs/fairness.md): the server commits to a hand's secret, the hand
waits for the players' seeds, and the whole deck comes from the secret and the seeds."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
from pathlib import Path

import pytest

from games.engine import (
    ALL_CARDS,
    IllegalAction,
    MatchState,
    apply,
    fair,
    legal_actions,
    new_match,
    player_view,
    spectator_view,
)
from ginclient import verify
from tests.engine.helpers import STANDARD, stacked

SECRET = "example-match-secret"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
SEEDED = fair.SEEDED


def _docs_line(label: str) -> str:
    """The value after ``label:`` in a line of the docs' worked example."""
    found = re.search(rf"^{re.escape(label)}:\s+(.+)$", DOCS.read_text(), re.MULTILINE)
    assert found, f"docs/fairness.md has no line {label!r}"
    return found.group(1).strip()


def waiting(secret: str = SECRET, seeders: tuple[int, ...] = (0, 1)) -> MatchState:
    return new_match(STANDARD, seed=secret, fair=SEEDED, seeders=seeders)


def dealt(p0: str = "alice-seed", p1: str = "bob-seed", secret: str = SECRET) -> MatchState:
    state = apply(waiting(secret), 0, {"type": "seed", "seed": p0})
    return apply(state, 1, {"type": "seed", "seed": p1})


# --- The worked example of the docs -----------------------------------------------------------


def test_it_derives_the_worked_example_of_the_docs_from_its_inputs() -> None:
    """The numbers docs/fairness.md shows are what the engine computes from the example's
    inputs, and what ginclient's checker, written from the docs alone, computes too."""
    message = _docs_line("message")
    server = hmac.new(SECRET.encode(), message.encode(), hashlib.sha256).hexdigest()
    assert message == "gin/server-seed/1"
    assert server == fair.server_seed(SECRET, 1) == _docs_line("server seed")
    assert hashlib.sha256(server.encode()).hexdigest() == _docs_line("commitment")
    key = _docs_line("key")
    assert (
        key
        == f"deal:{server}:alice-seed:bob-seed"
        == fair.deal_key(server, ("alice-seed", "bob-seed"))
    )
    block = hashlib.sha256(f"{key}:0".encode()).digest()
    assert block.hex() == _docs_line("block 0")
    numbers = [int.from_bytes(block[i : i + 4], "big") for i in range(0, 32, 4)]
    assert " ".join(map(str, numbers)) == _docs_line("numbers")
    deck = fair.seeded_deck(server, ("alice-seed", "bob-seed"))
    assert " ".join(deck) == _docs_line("deck")
    assert verify.shuffle(verify.CARDS, key) == deck
    # The first swaps, as the docs spell them out.
    cards, swaps = list(ALL_CARDS), []
    for i, x in zip(range(51, 47, -1), numbers, strict=False):
        j = x % (i + 1)  # none of these four is skipped: each is far below 2^32 - (2^32 mod b)
        assert x < (1 << 32) - (1 << 32) % (i + 1)
        swaps.append(f"i={i} j={j} ({cards[i]}<->{cards[j]})")
        cards[i], cards[j] = cards[j], cards[i]
    assert ", ".join(swaps) == _docs_line("swaps")
    bea = fair.seeded_deck(server, ("alice-seed", ""))
    assert " ".join(bea) == _docs_line("seat 1 none")
    assert verify.shuffle(verify.CARDS, f"deal:{server}:alice-seed:") == bea


def test_the_engine_deals_the_worked_example() -> None:
    state = dealt()
    deck = _docs_line("deck").split()
    text = DOCS.read_text()
    assert state.hands == (tuple(deck[0:10]), tuple(deck[10:20]))
    assert f"seat 0, holds `{' '.join(deck[0:10])}`" in text
    assert f"dealer `{' '.join(deck[10:20])}`, `{deck[20]}` is turned up" in text
    assert state.discard == (deck[20],) and state.stock == tuple(deck[21:])
    drawn = apply(
        apply(apply(state, 0, {"type": "pass"}), 1, {"type": "pass"}),
        0,
        {"type": "draw", "from": "stock"},
    )
    assert drawn.hands[0][-1] == deck[21]
    assert f"`{deck[21]}` is the first card drawn" in text


def test_the_older_schemes_example_still_holds() -> None:
    text = " ".join(DOCS.read_text().split())
    server = fair.server_seed(SECRET, 1)
    deck = fair.deck(server)
    assert f"the deck is `{' '.join(deck)}`" in text
    assert (
        f"cuts its 31-card stock into `{' '.join(fair.cut(deck[21:], server, 0, 'alice-seed'))}`"
        in text
    )


# --- Waiting for the seeds --------------------------------------------------------------------


def test_a_hand_waits_for_the_seeds_with_its_commitment_shown_and_no_card_dealt() -> None:
    state = waiting()
    assert state.phase == "shuffling" and state.to_act is None
    assert state.hands == ((), ()) and state.stock == () and state.discard == ()
    for seat in (0, 1):
        view = player_view(state, seat)
        assert view["legal_actions"] == [{"type": "seed"}]
        assert view["hand"] == [] and view["discard_pile"] == [] and view["stock_count"] == 0
        assert view["shuffle"] == {
            "scheme": "sha256-seeded-deal-2",
            "hand_number": 1,
            "commitment": fair.commitment(fair.server_seed(SECRET, 1)),
            "seeded": [False, False],
            "seeders": [0, 1],
            "awaiting": [0, 1],
        }
    one = apply(state, 1, {"type": "seed", "seed": "bob-seed"})
    assert one.phase == "shuffling" and one.version == 1
    assert player_view(one, 0)["shuffle"]["awaiting"] == [0]
    assert legal_actions(one, 1) == [] and legal_actions(one, 0) == [{"type": "seed"}]


def test_the_deal_comes_from_the_server_seed_and_both_seeds() -> None:
    state = dealt()
    deck = fair.seeded_deck(fair.server_seed(SECRET, 1), ("alice-seed", "bob-seed"))
    assert state.phase == "upcard_offer" and state.to_act == 0 and state.version == 2
    assert state.hands == (tuple(deck[0:10]), tuple(deck[10:20]))
    assert state.discard == (deck[20],) and state.stock == tuple(deck[21:])
    assert player_view(state, 0)["shuffle"]["seeded"] == [True, True]
    assert player_view(state, 0)["shuffle"]["awaiting"] == []


@pytest.mark.parametrize("seat", [0, 1])
def test_each_players_seed_changes_both_hands_the_upcard_and_the_stock(seat: int) -> None:
    base = dealt()
    for other in ("another-seed", "x", "alice-seed-2"):
        seeds = ["alice-seed", "bob-seed"]
        seeds[seat] = other
        changed = dealt(*seeds)
        assert changed.hands[0] != base.hands[0]
        assert changed.hands[1] != base.hands[1]
        assert changed.discard != base.discard
        assert changed.stock != base.stock


def test_the_order_of_the_seeds_does_not_matter_only_whose_they_are() -> None:
    first = apply(
        apply(waiting(), 1, {"type": "seed", "seed": "bob-seed"}),
        0,
        {"type": "seed", "seed": "alice-seed"},
    )
    assert (first.hands, first.discard, first.stock) == (
        dealt().hands,
        dealt().discard,
        dealt().stock,
    )
    swapped = dealt("bob-seed", "alice-seed")
    assert swapped.hands != first.hands


def test_a_second_seed_of_the_same_seat_is_refused_and_changes_nothing() -> None:
    one = apply(waiting(), 0, {"type": "seed", "seed": "alice-seed"})
    with pytest.raises(IllegalAction, match="in already: only the first one counts"):
        apply(one, 0, {"type": "seed", "seed": "alice-second-thoughts"})
    assert apply(one, 1, {"type": "seed", "seed": "bob-seed"}).hands == dealt().hands


def test_a_seed_on_a_later_action_changes_nothing() -> None:
    state = dealt()
    for action in ({"type": "pass"}, {"type": "take_upcard"}):
        plain = apply(state, 0, action)
        seeded = apply(state, 0, {**action, "seed": "later-seed"})
        assert seeded == plain
    passed = apply(apply(state, 0, {"type": "pass"}), 1, {"type": "pass"})
    draw = {"type": "draw", "from": "stock"}
    assert apply(passed, 0, {**draw, "seed": "later"}) == apply(passed, 0, draw)
    with pytest.raises(IllegalAction, match="No seed is wanted now"):
        apply(state, 0, {"type": "seed", "seed": "after-the-deal"})


def test_a_seed_action_without_a_seed_sends_none() -> None:
    state = apply(apply(waiting(), 0, {"type": "seed"}), 1, {"type": "seed", "seed": "bob-seed"})
    assert state.seeded == ("", "bob-seed")
    assert state.hands[0] == tuple(
        fair.seeded_deck(fair.server_seed(SECRET, 1), ("", "bob-seed"))[0:10]
    )
    assert player_view(state, 1)["shuffle"]["seeded"] == [False, True]


def test_only_the_seeders_send_seeds_and_the_deal_waits_for_them_alone() -> None:
    """Against Bea (seat 1) only the player's seed counts: her part is always none."""
    state = waiting(seeders=(0,))
    assert legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="This seat sends no seed"):
        apply(state, 1, {"type": "seed", "seed": "beas-own"})
    assert player_view(state, 0)["shuffle"]["awaiting"] == [0]
    state = apply(state, 0, {"type": "seed", "seed": "alice-seed"})
    deck = fair.seeded_deck(fair.server_seed(SECRET, 1), ("alice-seed", ""))
    assert state.phase == "upcard_offer" and state.hands[0] == tuple(deck[0:10])
    assert " ".join(deck) == _docs_line("seat 1 none")
    # Nobody to wait for: dealt at once from the server seed alone.
    alone = waiting(seeders=())
    assert alone.phase == "upcard_offer" and alone.seeded == ("", "")


@pytest.mark.parametrize("seed", ["", "x" * 65, "a b", "semi:colon", 7, None, ["a"]])
def test_a_malformed_seed_is_refused_and_changes_nothing(seed: object) -> None:
    state = waiting()
    with pytest.raises(IllegalAction, match="A seed is 1 to 64"):
        apply(state, 0, {"type": "seed", "seed": seed})
    assert state.seeded == (None, None)
    with pytest.raises(IllegalAction, match="A seed is 1 to 64"):
        apply(dealt(), 0, {"type": "pass", "seed": seed})


def test_nothing_but_a_seed_is_played_before_the_deal() -> None:
    for action in ({"type": "pass"}, {"type": "draw", "from": "stock"}, {"type": "next_hand"}):
        with pytest.raises(IllegalAction, match="not dealt yet"):
            apply(waiting(), 0, action)


def test_every_hand_waits_again_and_a_drawn_hand_counts_in_the_hand_numbers() -> None:
    """A hand played to a draw (nobody knocks) is redealt as the next hand number, from that
    number's server seed and the new hand's seeds."""
    state = dealt()
    while state.phase != "hand_over":
        seat = state.to_act
        legal = [a for a in legal_actions(state, seat) if a["type"] in ("pass", "draw", "discard")]
        state = apply(state, seat, legal[-1] if legal[-1]["type"] != "draw" else legal[0])
    assert state.last_hand["kind"] == "draw" and state.hand_number == 1
    state = apply(state, 1, {"type": "next_hand", "seed": "ignored-at-the-boundary"})
    assert state.hand_number == 2 and state.phase == "shuffling" and state.dealer == 1
    assert state.seeded == (None, None)
    assert player_view(state, 0)["shuffle"]["commitment"] == fair.commitment(
        fair.server_seed(SECRET, 2)
    )
    state = apply(
        apply(state, 0, {"type": "seed", "seed": "a2"}), 1, {"type": "seed", "seed": "b2"}
    )
    deck = fair.seeded_deck(fair.server_seed(SECRET, 2), ("a2", "b2"))
    assert state.hands[0] == tuple(deck[0:10]) and state.stock == tuple(deck[21:])


def test_a_stacked_first_hand_is_followed_by_fair_hands_from_the_secret_0() -> None:
    deck = stacked("AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "KC")
    state = new_match(STANDARD, deck=deck, fair=SEEDED)
    assert state.phase == "upcard_offer" and player_view(state, 0)["shuffle"] is None
    state = _play_to_hand_end(state, random.Random(1))
    state = apply(state, 0, {"type": "next_hand"})
    shown = player_view(state, 0)["shuffle"]
    assert state.phase == "shuffling" and shown["hand_number"] == 2
    assert shown["commitment"] == fair.commitment(fair.server_seed("0", 2))


def test_no_view_holds_a_seed_or_a_secret_and_the_commitment_stays_for_the_hand() -> None:
    """Every view of a hand, to either seat and a watcher, from the first moment it waits for
    seeds to its end, shows one commitment and holds neither the server seed, the match
    secret nor a player's seed."""
    for match in range(20):
        rng = random.Random(match)
        secret = f"secret-{match}"
        state = new_match(STANDARD, seed=secret, fair=SEEDED)
        seen: dict[int, set[str]] = {}
        while state.phase != "match_over" and state.version < 400:
            server = fair.server_seed(secret, state.hand_number)
            for view in (player_view(state, 0), player_view(state, 1), spectator_view(state)):
                text = json.dumps(view)
                assert server not in text and secret not in text and "deal-seed" not in text
                if state.phase != "hand_over":
                    assert view["shuffle"]["commitment"] == fair.commitment(server)
                    seen.setdefault(state.hand_number, set()).add(view["shuffle"]["commitment"])
            seat = next(s for s in (0, 1) if legal_actions(state, s))
            action = dict(rng.choice(legal_actions(state, seat)))
            if action["type"] == "seed":
                action["seed"] = f"deal-seed-{seat}-{state.hand_number}"
            state = apply(state, seat, action)
        assert all(len(commitments) == 1 for commitments in seen.values())


def _play_to_hand_end(state: MatchState, rng: random.Random) -> MatchState:
    while state.phase not in ("hand_over", "match_over"):
        assert state.to_act is not None
        legal = legal_actions(state, state.to_act)
        enders = [a for a in legal if a["type"] in ("knock", "gin", "big_gin")]
        state = apply(state, state.to_act, rng.choice(enders or legal))
    return state


# --- Primitives -------------------------------------------------------------------------------


def test_the_commitment_is_the_sha256_of_the_server_seeds_hex_digits() -> None:
    server = fair.server_seed(SECRET, 1)
    assert re.fullmatch(r"[0-9a-f]{64}", server)
    assert fair.commitment(server) == hashlib.sha256(server.encode()).hexdigest()
    assert fair.server_seed(SECRET, 1) != fair.server_seed("another secret", 1)
    assert fair.server_seed(7, 1) == fair.server_seed("7", 1)


def test_every_position_is_reachable_for_every_card() -> None:
    """Over many seeds the top card of the deck is each of the 52 (no card is stuck)."""
    server = fair.server_seed(SECRET, 1)
    tops = {fair.seeded_deck(server, (f"a{n}", "b"))[0] for n in range(1500)}
    assert tops == set(ALL_CARDS)


# --- Older matches: the players' seeds cut the stock (sha256-fisher-yates-1) ------------------


def test_an_older_match_deals_from_the_server_seed_at_once() -> None:
    state = new_match(STANDARD, seed=SECRET, fair=fair.CUT)
    deck = fair.deck(fair.server_seed(SECRET, 1))
    assert state.phase == "upcard_offer"
    assert state.hands == (tuple(deck[0:10]), tuple(deck[10:20]))
    assert player_view(state, 0)["shuffle"] == {
        "scheme": "sha256-fisher-yates-1",
        "hand_number": 1,
        "commitment": fair.commitment(fair.server_seed(SECRET, 1)),
        "seeded": [False, False],
    }


def test_in_an_older_match_a_seats_first_seed_cuts_the_stock() -> None:
    state = new_match(STANDARD, seed=SECRET, fair=fair.CUT)
    server = fair.server_seed(SECRET, 1)
    after = apply(state, 0, {"type": "pass", "seed": "alice-seed"})
    assert after.stock == tuple(fair.cut(state.stock, server, 0, "alice-seed"))
    later = apply(after, 1, {"type": "pass", "seed": "bob-seed"})
    assert later.stock == tuple(fair.cut(after.stock, server, 1, "bob-seed"))
    drawn = apply(later, 0, {"type": "draw", "from": "stock", "seed": "another"})
    assert drawn.stock == later.stock[1:] and drawn.seeded == ("alice-seed", "bob-seed")
    over = _play_to_hand_end(drawn, random.Random(3))
    nxt = apply(over, 0, {"type": "next_hand", "seed": "ignored"})
    assert nxt.seeded == (None, None)
    assert nxt.stock == tuple(fair.deck(fair.server_seed(SECRET, 2))[21:])
    with pytest.raises(IllegalAction, match="No seed is wanted now"):
        apply(nxt, 0, {"type": "seed", "seed": "alice-seed"})


def test_a_match_with_no_fair_scheme_ignores_seeds() -> None:
    state = new_match(STANDARD, seed=7)
    assert apply(state, 0, {"type": "pass", "seed": "alice-seed"}).stock == state.stock
    assert player_view(state, 0)["shuffle"] is None
