"""ginclient against a real server (daphne in this process): the commands, a bot against Bea,
and a bot in the lobby accepting a challenge and playing it out. Matches go to 50 points, but
the one in the lobby to 250, which no single hand reaches."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import pytest

from games.records import replays
from ginclient import ApiError, Client
from ginclient.board import card, describe, render
from ginclient.bot import Bot, load_choose
from ginclient.bots.random_bot import choose as random_choose
from ginclient.cli import main
from ginclient.verify import check
from lobby.events import stream as event_stream
from tests.browser.live_asgi import serve
from tests.games.live_helpers import lobby_match
from tests.games.test_fair_shuffle import play_out, second_hand, seed
from tests.games.test_replay import DECK, FIRST_HAND, play

from .conftest import token_for
from .test_browser_vs_api import pick

DEADLINE = 120
ALICE_MOVES = 40


@pytest.fixture
def server(monkeypatch, settings) -> str:  # type: ignore[no-untyped-def]
    # Quiet streams wake up often, so a lost wake-up costs a second, not ten.
    monkeypatch.setattr(event_stream, "KEEPALIVE_SECONDS", 1.0)
    # The test's own player polls; the rate limit has its own test.
    settings.API_RATE_LIMIT = 100_000
    return serve()


def test_it_draws_a_readable_board():
    view = {
        "seat": 0,
        "phase": "draw",
        "to_act": 0,
        "hand": ["AS", "2S", "3S", "TD", "KH"],
        "arrangement": {"melds": [["AS", "2S", "3S"]], "deadwood": 20},
        "discard_pile": ["4C", "9H"],
        "stock_count": 30,
        "opponent_card_count": 10,
        "known_opponent_cards": ["7D"],
        "legal_actions": [{"type": "draw", "from": "stock"}, {"type": "draw", "from": "discard"}],
        "scores": [12, 30],
        "hand_number": 2,
        "version": 40,
        "rules": {"name": "standard", "target": 100},
    }
    match = {
        "id": "m1",
        "seat": 0,
        "status": "active",
        "seats": [{"seat": 0, "display_name": "Alice"}, {"seat": 1, "display_name": "Bea"}],
        "view": view,
    }
    board = render(match)
    assert "[A♠ 2♠ 3♠]" in board and "K♥ 10♦" in board and "(20 points)" in board
    assert "top 9♥" in board and "Alice 12 · Bea 30" in board and "Your turn." in board
    assert "7♦" in board
    assert describe(view["legal_actions"][1], view) == "draw 9♥ from the discard pile"
    assert card("TC") == "10♣"


def test_it_loads_a_bot_from_a_file_or_a_module(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text("def choose(view):\n    return view['legal_actions'][0]\n")
    assert load_choose(f"{path}:choose")({"legal_actions": [{"type": "pass"}]}) == {"type": "pass"}
    assert load_choose("ginclient.bots.random_bot:choose") is random_choose
    for bad in ("nocolon", f"{path}:missing", "no/such/file.py:choose"):
        with pytest.raises(ValueError):
            load_choose(bad)


@pytest.mark.django_db(transaction=True)
def test_the_commands_and_their_errors(server: str, alice, bob):
    token = token_for(alice)
    Client(server, token_for(bob)).get("/players/online")  # bob is in the lobby
    lines: list[str] = []
    base = ["--server", server, "--token", token]
    assert main([*base, "me"], out=lines.append) == 0
    assert lines[0].startswith("alice (alice)")
    assert main([*base, "online"], out=lines.append) == 0
    assert any(line.startswith("bob") for line in lines)
    assert main([*base, "challenge", "bob", "--target", "50"], out=lines.append) == 0
    assert "to bob: standard to 50, open" in lines[-1]
    assert main([*base, "challenges"], out=lines.append) == 0
    assert main([*base, "seek", "--preset", "simple", "--rated"], out=lines.append) == 0
    assert lines[-1].endswith("posted: simple to 100, rated.")
    assert main([*base, "matches"], out=lines.append) == 0 and lines[-1].startswith("No matches")
    assert main([*base, "challenge", "nobody"], out=lines.append) == 1
    assert lines[-1] == "Error: There is no player of that name. (404 not_found)"
    assert main(["--server", server, "--token", "gin_wrong", "me"], out=lines.append) == 1
    assert "invalid_token" in lines[-1]
    assert main(["--server", server, "me"], out=lines.append) == 2
    assert main([*base, "--bot", "nothing.py:choose"], out=lines.append) == 2


@pytest.mark.django_db(transaction=True)
def test_a_correspondence_challenge_and_the_turns_it_makes(server: str, alice, bob):
    alices = ["--server", server, "--token", token_for(alice)]
    bobs = ["--server", server, "--token", token_for(bob)]
    lines: list[str] = []
    # bob is nowhere near the lobby: a correspondence challenge reaches him all the same.
    assert main([*alices, "challenge", "bob", "--days", "3"], out=lines.append) == 0
    assert "to bob: standard to 100, 3 days per move, open" in lines[-1]
    with pytest.raises(SystemExit):
        main([*alices, "challenge", "bob", "--days", "2"], out=lines.append)
    assert main([*bobs, "accept"], out=lines.append) == 0
    match_id = lines[-1].split()[1]
    # The first hand waits for the seeds: turns sends bob's at once.
    assert main([*bobs, "turns"], out=lines.append) == 0
    assert lines[-1].startswith(f"{match_id}  vs alice")
    assert lines[-1].endswith("sent your seed for the deal")
    assert main([*bobs, "turns"], out=lines.append) == 0
    assert lines[-1] == "No correspondence match is waiting for your move."
    # The hand waits for alice's seed too: her turns sends it, and the hand is dealt.
    assert main([*alices, "turns"], out=lines.append) == 0
    assert lines[-1].startswith(f"{match_id}  vs bob")
    assert lines[-1].endswith("sent your seed for the deal")
    # Now one of them is on the move, with days to go.
    to_move = []
    for player, opponent in ((alices, "bob"), (bobs, "alice")):
        assert main([*player, "turns"], out=lines.append) == 0
        if lines[-1].startswith(f"{match_id}  vs {opponent}"):
            to_move.append(lines[-1])
    assert len(to_move) == 1
    assert "standard to 100, 3 days per move: " in to_move[0] and to_move[0].endswith("left")


@pytest.mark.django_db(transaction=True)
def test_a_decline_with_other_rules_and_its_acceptance(server: str, alice, bob):
    alices = ["--server", server, "--token", token_for(alice)]
    bobs = ["--server", server, "--token", token_for(bob)]
    lines: list[str] = []
    assert main([*bobs, "online"], out=lines.append) == 0  # both in the lobby
    assert main([*alices, "challenge", "bob", "--target", "50"], out=lines.append) == 0
    challenge_id = int(lines[-1].split("#")[1].split()[0])
    decline = [*bobs, "decline", str(challenge_id), "--reason", "rules"]
    counter = ["--counter-preset", "classic", "--counter-target", "250"]
    assert main([*decline, *counter], out=lines.append) == 0
    assert "declined (rules); proposed instead: classic to 250" in lines[-1]
    assert main([*alices, "challenges"], out=lines.append) == 0
    assert "proposed instead: classic to 250" in lines[-1]
    assert main([*alices, "accept-counter", str(challenge_id)], out=lines.append) == 0
    match_id = lines[-1].split()[1]
    started = Client(server, token_for(alice)).get(f"/matches/{match_id}")
    assert started["rules"]["name"] == "classic" and started["rules"]["target"] == 250
    assert main([*alices, "accept-counter", str(challenge_id)], out=lines.append) == 1


@pytest.mark.django_db(transaction=True)
def test_it_prints_a_finished_hand_move_by_move(server: str, alice, bob):
    match = lobby_match(alice, bob, deck=DECK)
    base = ["--server", server, "--token", token_for(alice)]
    lines: list[str] = []
    assert main([*base, "replay", match.public_id], out=lines.append) == 1
    assert lines[-1] == "No hand of this match is over yet."
    play(match, FIRST_HAND)
    lines.clear()
    assert main([*base, "replay", match.public_id], out=lines.append) == 0
    text = "\n".join(lines)
    assert text.startswith(f"Hand 1 of match {match.public_id} · alice vs bob · bob deals")
    assert "  0. bob dealt; Q♣ was turned up." in text
    assert "alice  A♠ 2♠ 3♠ 4♥ 5♥ 6♥ K♦ 7♣ 8♣ 9♣  (10)" in text  # the deal, both hands open
    assert "  2. alice discarded K♦.\n" in text
    assert "     * Could have knocked with 10 (throwing K♦) and scored 70." in text
    assert "Result: knock, alice scores 71 (deadwood alice 1, bob 72)." in text
    # A hand that is not over (here: none) is refused, with the server's words.
    assert main([*base, "replay", match.public_id, "--hand", "2"], out=lines.append) == 1
    assert lines[-1] == (
        "Error: There is no finished hand of that number in this match. (404 not_found)"
    )


@pytest.mark.django_db(transaction=True)
def test_it_verifies_each_finished_hands_shuffle(server: str, alice, bob):
    match = second_hand(alice, bob)  # hand 1 stacked (not provably fair), hand 2 fair
    base = ["--server", server, "--token", token_for(alice)]
    lines: list[str] = []
    seed(match, 0, "alice-seed")
    seed(match, 1, "bob-seed")
    play_out(match, random.Random(4))
    assert main([*base, "verify", match.public_id, "--hand", "2"], out=lines.append) == 0
    assert lines[-1] == (
        f"Hand 2: verified. The deal and {_stock_draws(match, 2)} card(s) drawn from the stock "
        "come from the server seed it committed to and the players' seeds (alice-seed, "
        "bob-seed): check that yours is among them."
    )
    lines.clear()
    # The whole match: hand 1 was stacked by the test, and cannot be checked.
    assert main([*base, "verify", match.public_id], out=lines.append) == 1
    assert lines[0] == (
        "Hand 1: NOT verified: this hand was not dealt by the provably fair shuffle."
    )
    assert lines[1].startswith("Hand 2: verified.")


def _stock_draws(match: Any, hand: int) -> int:
    replay = replays.as_json(replays.replay_of(match, hand))
    return sum((m["action"] or {}).get("source") == "stock" for m in replay["moves"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_a_bot_plays_bea(server: str, alice, quick_bea: None):
    said: list[str] = []
    client = Client(server, token_for(alice))
    bot = Bot(client, random_choose, say=said.append, target=50, games=1)
    bot.against_bea("easy")
    assert len(bot.finished) == 1
    assert bot.results[0]["status"] == "finished"
    assert any("match finished" in line for line in said)
    # Every hand it played was dealt from a random seed of the bot's own (Bea sends none),
    # and each finished hand checks out.
    match = bot.results[0]
    seeds = set()
    for hand in match["view"]["history"]:
        replay = client.get(f"/matches/{match['id']}/hands/{hand['hand_number']}/replay")
        mine, beas = replay["shuffle"]["seeds"]
        assert len(mine) >= 16 and beas == ""
        seeds.add(mine)
        assert check(replay).ok
    assert len(seeds) == len(match["view"]["history"])  # fresh for each hand


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_a_bot_accepts_a_challenge_in_the_lobby_and_plays_it_out(server: str, alice, bob):
    bot_client = Client(server, token_for(bob))
    said: list[str] = []
    bot = Bot(bot_client, random_choose, say=said.append, games=1)
    failure: list[BaseException] = []

    def run() -> None:
        try:
            bot.lobby()
        except BaseException as error:  # noqa: BLE001 - reported by the test below
            failure.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    alice_client = Client(server, token_for(alice))
    deadline = time.monotonic() + DEADLINE
    while "bob" not in {p["username"] for p in alice_client.get("/players/online")}:
        assert time.monotonic() < deadline, "the bot never came into the lobby"
        time.sleep(0.1)
    # 250: alice knocks as soon as she may, and against a random bot's deadwood a knock in the
    # first turns could win a match to 50 before the bot has made a move.
    alice_client.post("/challenges", {"to": "bob", "target": 250})
    match = _wait_for_match(alice_client, deadline)
    moves = 0
    # A few dozen moves each way show the bot playing; then alice resigns, which keeps the
    # test short however long the match would have been.
    while match["status"] == "active" and moves < ALICE_MOVES:
        assert time.monotonic() < deadline, f"the bot stopped playing: {said[-5:]}"
        view = match["view"]
        if view["legal_actions"]:
            try:
                match = alice_client.post(
                    f"/matches/{match['id']}/actions",
                    {"action": pick(view), "version": view["version"]},
                )
                moves += 1
                continue
            except ApiError as refused:  # the bot dealt the next hand first
                assert refused.status == 409
        time.sleep(0.1)
        match = alice_client.get(f"/matches/{match['id']}")
    while match["status"] == "active":
        try:
            path = f"/matches/{match['id']}/resign"
            match = alice_client.post(path, {"version": match["version"]})
        except ApiError as refused:  # the bot moved since alice last read the match
            assert refused.status == 409
            match = alice_client.get(f"/matches/{match['id']}")
    thread.join(timeout=30)
    assert not failure, failure
    assert not thread.is_alive()
    assert match["status"] in ("finished", "resigned")
    assert any("accepted alice's challenge" in line for line in said)
    assert sum(1 for line in said if line.startswith(match["id"])) > min(moves, 10)
    assert len(bot.finished) == 1


def _wait_for_match(client: Client, deadline: float) -> dict[str, Any]:
    while True:
        found = client.get("/matches", status="active")
        if found:
            return dict(client.get(f"/matches/{found[0]['id']}"))
        assert time.monotonic() < deadline, "the bot never accepted"
        time.sleep(0.1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_ginclient_pair_joins_the_pool_and_plays_whoever_it_is_paired_with(server: str, alice, bob):
    said: list[str] = []
    argv = [
        "--server",
        server,
        "--token",
        token_for(bob),
        "--bot",
        "ginclient.bots.random_bot:choose",
    ]
    argv += ["--games", "1", "pair", "--preset", "classic", "--target", "250", "--rated"]
    codes: list[int] = []
    thread = threading.Thread(target=lambda: codes.append(main(argv, out=said.append)), daemon=True)
    thread.start()
    bob_client = Client(server, token_for(bob))
    deadline = time.monotonic() + DEADLINE
    while bob_client.get("/pool")["status"] != "waiting":
        assert time.monotonic() < deadline, f"the bot never joined the pool: {said}"
        time.sleep(0.1)
    alice_client = Client(server, token_for(alice))
    paired = alice_client.post("/pool", {"preset": "classic", "target": 250, "rated": True})
    assert paired["status"] == "paired" and paired["opponent"]["username"] == "bob"
    match = alice_client.get(f"/matches/{paired['match']}")
    while match["status"] == "active":
        try:
            path = f"/matches/{match['id']}/resign"
            match = alice_client.post(path, {"version": match["version"]})
        except ApiError as refused:  # the bot moved since alice last read the match
            assert refused.status == 409
            match = alice_client.get(f"/matches/{match['id']}")
    thread.join(timeout=60)
    assert codes == [0], said
    assert "waiting for an opponent: classic to 250, rated" in said
    assert f"paired with alice: match {paired['match']}" in said
    assert said[-1] == "Done: 1 matches."


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_ginclient_arena_joins_an_arena_and_plays_its_pairings(server: str, alice, bob):
    from tests.lobby.arena_helpers import arena

    made = arena(target=50)
    said: list[str] = []
    argv = ["--server", server, "--token", token_for(bob), "--bot"]
    argv += ["ginclient.bots.random_bot:choose", "--games", "1", "arena", made.public_id]
    codes: list[int] = []
    thread = threading.Thread(target=lambda: codes.append(main(argv, out=said.append)), daemon=True)
    thread.start()
    bob_client = Client(server, token_for(bob))
    deadline = time.monotonic() + DEADLINE
    while bob_client.get(f"/arenas/{made.public_id}")["players"] < 1:
        assert time.monotonic() < deadline, f"the bot never joined the arena: {said}"
        time.sleep(0.1)
    alice_client = Client(server, token_for(alice))
    joined = alice_client.post(f"/arenas/{made.public_id}/join")
    match = alice_client.get(f"/matches/{joined['me']['playing']}")
    while match["status"] == "active":
        try:
            path = f"/matches/{match['id']}/resign"
            match = alice_client.post(path, {"version": match["version"]})
        except ApiError as refused:  # the bot moved since alice last read the match
            assert refused.status == 409
            match = alice_client.get(f"/matches/{match['id']}")
    thread.join(timeout=60)
    assert codes == [0], said
    assert said[0].startswith("joined Standard to 50, 30-minute arena: running")
    assert any(match["id"] in line for line in said)
    assert said[-2].startswith("arena: place ")
    assert said[-1] == "Done: 1 matches."
