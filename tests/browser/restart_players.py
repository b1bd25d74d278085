"""Two API players for the rolling-restart test: each holds its event socket (``/ws/events/``)
through nginx and, when it is cut, reconnects with ``since`` as docs/api.md says; one thread
plays their match by ``POST /actions`` with ginclient, which retries a lost answer with the
same ``Idempotency-Key``. Everything they saw is kept for the test to check."""

from __future__ import annotations

import json
import ssl
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from ginclient.api import ApiError, Client, move_body, only_seed

MOVE_PAUSE = 0.25
# The moves that keep a hand going: never a knock or gin, so the match outlasts the restart.
PREFERRED = ("seed", "next_hand", "pass", "draw", "discard")


def choose(view: dict[str, Any]) -> dict[str, Any]:
    legal = view["legal_actions"]
    if only_seed(legal):
        return legal[0]
    for kind in PREFERRED:
        for action in legal:
            if action["type"] == kind and action.get("from", "stock") == "stock":
                return action
    return legal[0]


@dataclass
class EventSocket:
    """A player's event socket, reopened with ``since`` whenever it closes, until stopped."""

    url: str
    token: str
    tls: ssl.SSLContext
    seqs: list[int] = field(default_factory=list)
    opened: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    history: list[str] = field(default_factory=list)  # each open and each close, for a failure

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self._run, daemon=True)
        thread.start()
        return thread

    def _run(self) -> None:
        while not self.stop.is_set():
            since = self.seqs[-1] if self.seqs else 0
            try:
                with connect(
                    f"{self.url}?since={since}&presence=false",
                    ssl=self.tls,
                    additional_headers={"Authorization": f"Bearer {self.token}"},
                    open_timeout=10,
                ) as ws:
                    self.history.append(f"{time.monotonic():.1f} connected after {since}")
                    self._read(ws)
            except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
                self.history.append(f"{time.monotonic():.1f} {type(error).__name__}: {error}")
                time.sleep(0.2)
            except Exception as error:  # anything else: kept for the test to show, and again
                self.history.append(f"{time.monotonic():.1f} UNEXPECTED {error!r}")
                time.sleep(0.2)

    def _read(self, ws: Any) -> None:
        while not self.stop.is_set():
            try:
                frame = json.loads(ws.recv(timeout=0.5))
            except TimeoutError:
                continue
            if frame.get("type") == "hello":
                # Open, as a client counts it: the player is in the lobby from the hello on
                # (docs/api.md); the handshake alone comes before that.
                self.opened += 1
                self.history.append(f"{time.monotonic():.1f} hello")
            if "seq" in frame:
                self.seqs.append(int(frame["seq"]))


@dataclass
class ApiMatch:
    """Plays one match for both seats, a move at a time, until stopped."""

    clients: dict[int, Client]  # seat -> that seat's player
    match_id: str
    confirmed: list[tuple[float, int]] = field(default_factory=list)  # (when, version after)
    errors: list[str] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self._run, daemon=True)
        thread.start()
        return thread

    def _run(self) -> None:
        while not self.stop.is_set():
            for client in self.clients.values():
                try:
                    self._move(client)
                except ApiError as refused:
                    self.errors.append(str(refused))
                time.sleep(MOVE_PAUSE)

    def _move(self, client: Client) -> None:
        match = client.get(f"/matches/{self.match_id}")
        view = match["view"]
        if not view.get("legal_actions"):
            return
        answer = client.post(f"/matches/{self.match_id}/actions", move_body(view, choose(view)))
        self.confirmed.append((time.monotonic(), int(answer["view"]["version"])))
