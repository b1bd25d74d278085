"""No hidden card ever reaches a seat: random matches played through the real views (the test
client) with both seats and a watcher on the real consumer (tests.sockets.Socket), scanning
every HTML response and every frame for the cards its reader may not see at that moment."""

from __future__ import annotations

import contextlib
import random
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from games import services
from games.access import GUEST_COOKIE
from games.bea import turns as bea_turns
from games.engine import ALL_CARDS, fair, legal_actions, player_view
from games.models import Match
from games.state_cache import load_state
from tests.seeds import deal
from tests.sockets import Socket

from .live_helpers import cookie_of, frames, lobby_match, shown_cards, signed_in, socket

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

MATCHES = 30
# The matches in batches, each a test of its own, so that parallel workers share them out.
BATCHES = 6
# Each match is played into its second hand (a whole first hand, its result, a new deal).
MOVES_INTO_SECOND_HAND = 4
MAX_ACTIONS = 120
WATCHER = 2  # the index of carol's socket beside the two seats


def hidden_from(match: Match, reader: int) -> list[str]:
    """What ``reader`` (seat 0 or 1, or WATCHER) may not see now: the stock, and the players'
    cards it does not hold and no one has shown (both hands are open once a hand ends)."""
    state = load_state(match)
    hidden = set(state.stock)
    if state.phase not in ("hand_over", "match_over"):
        for seat in (0, 1):
            if seat != reader:
                hidden |= set(state.hands[seat]) - set(state.known[seat])
    return [c for c in ALL_CARDS if c in hidden]


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action, leaning towards good discards and ending the hand so that hands
    reach their end (and lay both hands open) often."""
    legal = view["legal_actions"]
    enders = [a for a in legal if a["type"] in ("gin", "big_gin", "knock")]
    if enders and rng.random() < 0.9:
        return rng.choice(enders)
    after = view.get("deadwood_after_discard") or {}
    discards = [a for a in legal if a["type"] == "discard"]
    if discards and after and rng.random() < 0.7:
        return min(discards, key=lambda a: after.get(a["card"], 99))
    return rng.choice(legal)


def form_of(action: dict[str, Any]) -> dict[str, Any]:
    """The POST the table's buttons send for ``action``, with a seed of the page's own as the
    page sends with a seat's first move of a hand (later ones change nothing)."""
    kind = action["type"]
    seed = {"seed": f"page-seed-{random.randrange(10**9)}"}
    if kind == "draw":
        return {"move": f"draw_{action['from']}", **seed}
    if "card" in action:
        return {"move": kind, "card": action["card"], **seed}
    return {"move": kind, **seed}


def secrets_of(match: Match) -> list[str]:
    """What no reader may see while a hand is played: the match's secret seed, the server
    seed of the hand in play (revealed only by its replay, once it is over) and of the hands
    to come, and the players' seeds of the hand in play (docs/fairness.md)."""
    state = load_state(match)
    over = state.phase in ("hand_over", "match_over")
    first = state.hand_number + (1 if over else 0)
    seeds = [] if over else [seed for seed in state.seeded if seed]
    return [
        match.seed,
        *(fair.server_seed(match.seed, n) for n in range(first, first + 5)),
        *seeds,
    ]


def told_secrets(match: Match, text: str) -> list[str]:
    """The secret seeds ``text`` gives away (none, we hope)."""
    return [secret for secret in secrets_of(match) if secret in text]


class Leaks:
    def __init__(self) -> None:
        self.scanned = 0

    def check(self, match: Match, reader: int, text: str, where: str) -> None:
        self.scanned += 1
        leaked = shown_cards(text, hidden_from(match, reader))
        assert not leaked, f"{where} to reader {reader} showed hidden {leaked}"
        assert not told_secrets(match, text), f"{where} to reader {reader} showed a secret seed"


async def _frames_until(comm: Socket, version: int) -> list[str]:
    """Frames up to and including the one that brings the page to ``version``."""
    got: list[str] = []
    marker = f'data-version="{version}"'
    while True:
        text = await comm.receive_from(timeout=10)
        got.append(text)
        if marker in text:
            return got


@sync_to_async
def _play_one(
    match: Match, clients: list[Client], rng: random.Random, leaks: Leaks
) -> tuple[int, int] | None:
    """One random action by whoever may act, through the view; None once the match is over."""
    match.refresh_from_db()
    state = load_state(match)
    if state.phase == "match_over":
        return None
    # Whoever may act: the seat to move, either seat between hands, or (the hand waiting
    # for the players' seeds) a seat whose seed is still awaited.
    seats = [s for s in (0, 1) if legal_actions(state, s)]
    seat = rng.choice(seats)
    view = player_view(load_state(match), seat)
    action = choose(view, rng)
    data = {**form_of(action), "version": match.version}
    url = reverse("games:act", args=[match.public_id])
    response = clients[seat].post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content[:300]
    match.refresh_from_db()
    leaks.check(match, seat, response.content.decode(), f"POST {action}")
    return seat, match.version


@sync_to_async
def _pages(match: Match, clients: list[Client], leaks: Leaks) -> None:
    url = reverse("games:table", args=[match.public_id])
    for reader, client in enumerate(clients):
        leaks.check(match, reader, client.get(url).content.decode(), "page")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("batch", range(BATCHES))
async def test_no_hidden_card_reaches_a_seat_or_a_watcher(
    alice: User, bob: User, carol: User, batch: int
):
    clients = [await sync_to_async(signed_in)(u) for u in (alice, bob, carol)]
    cookies = [cookie_of(c) for c in clients]
    leaks = Leaks()
    hands_ended = 0
    size = MATCHES // BATCHES
    for number in range(batch * size, (batch + 1) * size):
        rng = random.Random(number)
        match = await sync_to_async(lobby_match)(alice, bob)
        comms = [socket(match, cookie) for cookie in cookies]
        try:
            for reader, comm in enumerate(comms):
                assert (await comm.connect())[0]
                for text in await frames(comm, quiet=0.1):
                    await sync_to_async(leaks.check)(match, reader, text, "connect")
            second_hand_moves = 0
            for step in range(MAX_ACTIONS):
                played = await _play_one(match, clients, rng, leaks)
                if played is None:
                    break
                _seat, version = played
                for reader, comm in enumerate(comms):
                    for text in await _frames_until(comm, version):
                        await sync_to_async(leaks.check)(match, reader, text, f"frame v{version}")
                state = await sync_to_async(load_state)(match)
                if state.phase in ("hand_over", "match_over"):
                    hands_ended += 1
                    await _pages(match, clients, leaks)
                if state.hand_number > 1:
                    second_hand_moves += 1
                    if second_hand_moves > MOVES_INTO_SECOND_HAND:
                        break
                if step % 10 == 0:
                    await _pages(match, clients, leaks)
            # A player sits in one lobby match at a time: this one ends before the next.
            with contextlib.suppress(services.MatchClosed):
                await sync_to_async(services.resign)(match, 0, services.CURRENT)
        finally:
            for comm in comms:
                await comm.disconnect()
    assert hands_ended >= size // 2, "too few hands reached their end to test the reveal"
    assert leaks.scanned > size * 100


async def _guest_may_act(match: Match) -> int:
    """Wait until Bea is done (the guest acts, or nobody does); the version then."""
    idle = sync_to_async(bea_turns.worker.wait_idle, thread_sensitive=False)
    assert await idle(60), "Bea never finished her turn"
    await sync_to_async(match.refresh_from_db)()
    return match.version


@pytest.mark.timeout(600)
async def test_no_hidden_card_reaches_a_guest_playing_bea(quick_bea: None):
    """A guest without an account against Bea: the pages, the move answers and the frames of
    the guest's socket, while Bea plays on the server. Within a hand a card only ever leaves
    the hidden set, so a frame is checked against the position once Bea is done."""
    guest = Client()
    choice = {"preset": "standard", "target": 50, "level": "easy"}
    await sync_to_async(guest.post)(reverse("games:new"), choice)
    match = await sync_to_async(Match.objects.get)(kind=Match.Kind.BEA)
    key = guest.cookies[GUEST_COOKIE].value
    leaks = Leaks()
    strangers = [socket(match, None), socket(match, f"{GUEST_COOKIE}={'x' * 43}".encode())]
    for stranger in strangers:
        assert not (await stranger.connect())[0]
        await stranger.disconnect()
    comm = socket(match, f"{GUEST_COOKIE}={key}".encode())
    assert (await comm.connect())[0]
    rng = random.Random(7)
    table = reverse("games:table", args=[match.public_id])
    hands_ended = 0
    try:
        for _step in range(MAX_ACTIONS):
            version = await _guest_may_act(match)
            for text in await _frames_until(comm, version):
                await sync_to_async(leaks.check)(match, 0, text, f"frame v{version}")
            page = await sync_to_async(guest.get)(table)
            await sync_to_async(leaks.check)(match, 0, page.content.decode(), "page")
            state = await sync_to_async(load_state)(match)
            if state.phase in ("hand_over", "match_over"):
                hands_ended += 1  # both hands now lie open: the pages above were checked so
            if not match.is_active or state.phase == "match_over" or hands_ended > 1:
                break
            action = choose(player_view(state, 0), rng)
            data = {**form_of(action), "version": match.version}
            url = reverse("games:act", args=[match.public_id])
            response = await sync_to_async(guest.post)(url, data, HTTP_HX_REQUEST="true")
            assert response.status_code == 200, response.content[:300]
            await sync_to_async(match.refresh_from_db)()
            await sync_to_async(leaks.check)(match, 0, response.content.decode(), f"{action}")
    finally:
        await comm.disconnect()
    assert hands_ended >= 1
    assert leaks.scanned > 30


@pytest.mark.timeout(120)
async def test_a_seats_hand_order_reaches_nobody_else(alice: User, bob: User, carol: User):
    """Alice arranges her hand (by rank, then dragged into her own order): Bob's page, his
    JSON, his and a watcher's frames and the watcher's page show nothing of it."""
    from lobby.accounts import tokens

    clients = [await sync_to_async(signed_in)(u) for u in (alice, bob, carol)]
    match = await sync_to_async(lobby_match)(alice, bob)
    await sync_to_async(deal)(match)
    order_url = reverse("games:order", args=[match.public_id])
    table_url = reverse("games:table", args=[match.public_id])
    comms = [socket(match, cookie_of(c)) for c in clients[1:]]
    try:
        for comm in comms:
            assert (await comm.connect())[0]
            await frames(comm, quiet=0.1)
        mine = await sync_to_async(lambda: player_view(load_state(match), 0)["hand"])()
        dragged = list(reversed(sorted(mine)))
        post = sync_to_async(clients[0].post)
        assert (await post(order_url, {"sort": "rank"}, HTTP_HX_REQUEST="true")).status_code == 200
        response = await post(order_url, {"order": " ".join(dragged)}, HTTP_HX_REQUEST="true")
        assert response.status_code == 204
        alice_page = (await sync_to_async(clients[0].get)(table_url)).content.decode()
        assert alice_page.index(f'data-code="{dragged[0]}"') < alice_page.index(
            f'data-code="{dragged[-1]}"'
        )
        # Alice moves, so that every reader gets a frame of the new position.
        view = await sync_to_async(lambda: player_view(load_state(match), 0))()
        action = view["legal_actions"][0]
        data = {**form_of(action), "version": view["version"]}
        await post(reverse("games:act", args=[match.public_id]), data, HTTP_HX_REQUEST="true")
        texts = []
        for comm in comms:
            texts += await frames(comm, quiet=0.3)
        texts.append((await sync_to_async(clients[1].get)(table_url)).content.decode())
        texts.append((await sync_to_async(clients[2].get)(table_url)).content.decode())
        token = await sync_to_async(tokens.create)(bob, "leak")
        api = await sync_to_async(Client().get)(
            f"/api/v1/matches/{match.public_id}", headers={"Authorization": f"Bearer {token[1]}"}
        )
        assert api.status_code == 200
        texts.append(api.content.decode())
        for text in texts:
            assert not shown_cards(text, [c for c in dragged if c not in view["discard_pile"]])
            assert 'data-sort="rank"' not in text
            assert " ".join(dragged) not in text
    finally:
        for comm in comms:
            await comm.disconnect()
        with contextlib.suppress(services.MatchClosed):
            await sync_to_async(services.resign)(match, 0, services.CURRENT)
