"""Helpers for live play: lobby matches between two people, their sockets, and frames."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any

from channels.db import database_sync_to_async
from django.test import Client

from games import services
from games.engine import display
from games.labels import card, card_name
from games.models import Match, Seat
from ginsite.asgi import application
from tests.sockets import Socket

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def lobby_match(alice: User, bob: User, deck: list[str] | None = None, target: int = 100) -> Match:
    """A lobby match: alice in seat 0 (plays first), bob in seat 1."""
    return services.create_match(
        Match.Kind.LOBBY,
        services.ruleset("standard", target),
        (
            services.SeatSpec(Seat.Kind.PLAYER, user=alice),
            services.SeatSpec(Seat.Kind.PLAYER, user=bob),
        ),
        deck=deck,
    )


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def cookie_of(client: Client) -> bytes:
    return f"sessionid={client.cookies['sessionid'].value}".encode()


def socket(match: Match | str, cookie: bytes | None) -> Socket:
    public_id = match if isinstance(match, str) else match.public_id
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if cookie:
        headers.append((b"cookie", cookie))
    return Socket(application, f"/ws/games/{public_id}/", headers=headers)


async def frames(comm: Socket, quiet: float = 0.3, until: str | None = None) -> list[str]:
    """Every frame until the socket has been quiet for ``quiet`` seconds; with ``until``, not
    before a frame holding that text came. A push the test waits for may take a busy machine
    longer than ``quiet`` to send: name it in ``until`` (waited for up to ``PATIENCE``)."""
    got: list[str] = []
    while until is not None and not any(until in text for text in got):
        output = await comm.receive_output()
        if output["type"] == "websocket.close":
            return got
        got.append(output.get("text") or "")
    while not await comm.receive_nothing(timeout=quiet):
        output = await comm.receive_output()
        if output["type"] == "websocket.close":
            break
        got.append(output.get("text") or "")
    return got


async def opening_frames(comm: Socket) -> list[str]:
    """What a socket that just connected gets: its full refresh first (however long a cold
    process takes to render it), then every frame until it has been quiet for a moment."""
    return [await comm.receive_from(timeout=10), *await frames(comm)]


async def close_code(comm: Socket, timeout: float = 3) -> int:
    """The code the server closes ``comm`` with, past any frame still on its way (a push of the
    live region that a busy machine delivered after the opening frames went quiet)."""
    while (output := await comm.receive_output(timeout=timeout))["type"] == "websocket.send":
        pass
    assert output["type"] == "websocket.close", output
    return int(output["code"])


def json_frames(texts: list[str]) -> list[dict[str, Any]]:
    return [json.loads(t) for t in texts if t.startswith("{")]


@database_sync_to_async
def submit(match: Match, seat: int, action: dict[str, Any]) -> None:
    match.refresh_from_db()
    services.submit(match, seat, action, match.version)


@database_sync_to_async
def call(fn: Any, *args: Any, **kwargs: Any) -> Any:
    return fn(*args, **kwargs)


def shown_cards(html: str, codes: list[str] | str) -> list[str]:
    """Which of ``codes`` appear in ``html`` in any form the site writes a card: a code in an
    attribute or as text, the glyph label (10♦), the spoken name (10 of diamonds) or the
    card's rank and suit spans."""
    if isinstance(codes, str):
        codes = codes.split()
    found = []
    for code in codes:
        data = card(code)
        forms = (
            f'"{code}"',
            f">{code}<",
            display(code),
            card_name(code),
            f'<span class="rank">{data["rank"]}</span><span class="suit">{data["suit"]}</span>',
        )
        if any(form in html for form in forms):
            found.append(code)
    return found


# What issue 23 saw in English on a German table after every push, and the move log's verbs.
ENGLISH = (
    "Your turn",
    "Stock ·",
    "Discard pile",
    "Draw from the stock",
    "Hint",
    "Resign",
    "connected",
    "away",
    "Your move clock",
    "Offer to restart",
    "Bea is thinking",
    "Waiting for",
    "drew",
    "discarded",
    "passed",
)


class _Words(HTMLParser):
    """What a reader sees or hears of some HTML: its text, and its labels and tooltips."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.parts += [v or "" for k, v in attrs if k in ("aria-label", "title", "alt")]


def english(html: str) -> list[str]:
    """Which of the ENGLISH phrases a reader of ``html`` meets."""
    parser = _Words()
    parser.feed(html)
    words = " ".join(parser.parts)
    return [phrase for phrase in ENGLISH if phrase in words]
