"""The players and matches as the live run's clients know them, and the moves those clients make."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection

from bench.harness.connections import Http


@dataclass(eq=False)
class Player:
    username: str
    token: str
    port: int
    http: Http
    ws: ClientConnection | None = None
    listener: asyncio.Task[None] | None = None
    views: dict[str, dict[str, Any]] = field(default_factory=dict)
    versions: dict[str, Counter[int]] = field(default_factory=dict)
    challenges: dict[int, asyncio.Future[None]] = field(default_factory=dict)
    frames: Counter[str] = field(default_factory=Counter)
    frame_bytes: Counter[str] = field(default_factory=Counter)
    next_seq: int | None = None
    seq_gaps: int = 0
    seq_repeats: int = 0
    last_frame_at: float | None = None
    longest_silence: float = 0.0
    # A match event whose version is lower than one this socket already delivered.
    versions_backwards: int = 0
    # Moves sent over the event socket, waiting for their answer frames, by the frame's id.
    answers: dict[str, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)

    def challenge_seen(self, challenge_id: int) -> asyncio.Future[None]:
        if challenge_id not in self.challenges:
            self.challenges[challenge_id] = asyncio.get_running_loop().create_future()
        return self.challenges[challenge_id]

    def remember(self, match_id: str, view: dict[str, Any]) -> None:
        known = self.views.get(match_id)
        if known is None or view["version"] >= known["version"]:
            self.views[match_id] = view


@dataclass(eq=False)
class Match:
    id: str
    players: tuple[Player, Player]
    version: int = 0  # the newest version anyone has been told of
    in_flight: bool = False
    done: bool = False
    moves: int = 0


def choose(view: dict[str, Any]) -> dict[str, Any]:
    """A simple legal move: go out when possible, pass the upcard, draw from the stock, and
    discard the card that leaves the least deadwood."""
    legal: list[dict[str, Any]] = view["legal_actions"]
    after = view.get("deadwood_after_discard") or {}
    for kind in ("big_gin", "gin", "knock", "pass", "draw", "discard", "next_hand"):
        options = [a for a in legal if a["type"] == kind and a.get("from", "stock") == "stock"]
        if options:
            return min(options, key=lambda a: after.get(a.get("card", ""), 0))
    return legal[0]


@dataclass(frozen=True)
class Client:
    """How the players' program behaves: when they move (``moments``), whether each request
    opens a connection of its own (``fresh``, as ``ginclient`` on ``urllib`` does) or reuses
    one (``keep``), and whether they read the match (``GET /matches/{id}``) before each move,
    as ``ginclient``'s bot does after an event, or choose from the event's view (``view``).
    The defaults are the most demanding of each."""

    pace: str = "random"
    connections: str = "fresh"
    reads: str = "get"
    # Moves as HTTP POSTs, or as ``act`` frames over the already open event socket.
    moves: str = "http"

    def __str__(self) -> str:
        told = f"pace {self.pace}, {self.connections} connections, reads {self.reads}"
        return told + (", moves over the event socket" if self.moves == "socket" else "")
