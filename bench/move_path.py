"""Which of the site's modules one move passes through, followed call by call as it runs.

    .venv/bin/python -m bench.move_path [--door htmx|socket|api|event] [--order]

Sets up its own throwaway database (as ``bench.move_profile``), two players and a lobby match,
makes a few moves to warm up, then traces one more: a discard posted to ``views.act`` with htmx
(``--door htmx``), sent over the table socket (``socket``), posted to the JSON API (``api``) or
sent as the event socket's ``act`` frame (``event``). Every call and return of the site's own
code (not Django's, not the tests') is recorded, on every thread the move uses.

It prints the modules the move passed through, in the order it first entered them, and two
counts of going back:
- *call-backs*: a call into a module that is already further down the stack (a module left
  for another that then calls it again), the thing a move read in one direction does not do;
- *returns*: stays in a module entered before, returns from a call included (every call
  that comes back counts one; a move that calls five helpers from one module has four).
With ``--order`` it prints every stay in order. Prints, never asserts.
"""

from __future__ import annotations

import argparse
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from bench.move_profile import throwaway_database

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = ("tests/", "bench/", ".venv/")


def _module(frame: FrameType) -> str | None:
    """The site module ``frame`` runs in, relative to the checkout, or None for anyone else's."""
    name = frame.f_code.co_filename
    if not name.startswith(str(ROOT)):
        return None
    relative = name[len(str(ROOT)) + 1 :]
    if relative.startswith(OUTSIDE) or not relative.endswith(".py"):
        return None
    return relative


def _chain(modules: list[str]) -> list[str]:
    """The modules of a stack, outermost first, each once for a run of frames in it."""
    return [m for i, m in enumerate(modules) if i == 0 or m != modules[i - 1]]


@dataclass
class Trace:
    """The stays of one move, from its entry (``module``, ``function``) on: on the entry's
    thread only what runs under the entry's frame; on the threads it hands work to, all."""

    entry: tuple[str, str]
    stays: list[str] = field(default_factory=list)
    callbacks: list[tuple[str, str]] = field(default_factory=list)
    deepest: list[str] = field(default_factory=list)  # the longest chain of modules calling on
    lock: threading.Lock = field(default_factory=threading.Lock)
    active: bool = False
    entry_frame: FrameType | None = None
    entry_thread: int | None = None

    def _enter(self, module: str) -> None:
        if not self.stays or self.stays[-1] != module:
            self.stays.append(module)

    def _below(self, frame: FrameType | None) -> list[str] | None:
        """The site modules under ``frame`` down to the entry (nearest first), or None when
        ``frame`` runs on the entry's thread but not under it (not part of the move)."""
        modules: list[str] = []
        while frame is not None:
            module = _module(frame)
            if module is not None:
                modules.append(module)
            if frame is self.entry_frame:
                return modules
            frame = frame.f_back
        return None if threading.get_ident() == self.entry_thread else modules

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if not self.active or event not in ("call", "return"):
            return
        module = _module(frame)
        if module is None:
            return
        with self.lock:
            if self.entry_frame is None:
                if event != "call" or (module, frame.f_code.co_name) != self.entry:
                    return
                self.entry_frame, self.entry_thread = frame, threading.get_ident()
            if event == "call":
                below = [] if frame is self.entry_frame else self._below(frame.f_back)
                if below is None:
                    return
                caller = below[0] if below else None
                further = [m for m in below if m != caller]
                if caller is not None and caller != module and module in further:
                    self.callbacks.append((caller, module))
                chain = _chain([*reversed(below), module])
                if len(chain) > len(self.deepest):
                    self.deepest = chain
                self._enter(module)
            elif frame is not self.entry_frame:
                below = self._below(frame.f_back)
                if below:
                    self._enter(below[0])

    def start(self) -> None:
        threading.setprofile(self.profile)
        sys.setprofile(self.profile)

    def stop(self) -> None:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]


ENTRIES = {
    "htmx": ("games/web/views.py", "act"),
    "socket": ("games/web/table_socket.py", "act"),
    "api": ("games/api/matches.py", "post_action"),
    "event": ("lobby/events/socket_commands.py", "act"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--door", choices=("htmx", "socket", "api", "event"), default="htmx")
    parser.add_argument("--order", action="store_true", help="print every stay in order")
    args = parser.parse_args(argv)
    with throwaway_database():
        trace = _run(args.door)
    _report(trace, args.door, args.order)
    return 0


def _report(trace: Trace, door: str, order: bool) -> None:
    first: list[str] = []
    for module in trace.stays:
        if module not in first:
            first.append(module)
    returns = len(trace.stays) - len(first)
    module, function = ENTRIES[door]
    print(
        f"\none move by {door}, from {module} {function}: {len(first)} modules, "
        f"{len(trace.stays)} stays, "
        f"{returns} returns, {len(trace.callbacks)} call-backs\n"
    )
    for number, module in enumerate(first, 1):
        print(f"{number:3}. {module}")
    print(f"\nthe deepest chain, each module calling the next: {len(trace.deepest)} modules")
    for module in trace.deepest:
        print(f"     {module}")
    if trace.callbacks:
        print("\ncall-backs (caller -> a module further down the stack):")
        for caller, module in dict.fromkeys(trace.callbacks):
            print(f"     {caller} -> {module}")
    if order:
        print("\nevery stay:")
        for module in trace.stays:
            print(f"     {module}")


def _run(door: str) -> Trace:
    import asyncio
    import json
    import uuid

    from channels.testing import WebsocketCommunicator
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import services
    from games.models import Match, Seat
    from ginsite.asgi import application
    from lobby.accounts import tokens
    from lobby.events import socket_commands

    trace = Trace(ENTRIES[door])
    trace.start()  # every thread from here on carries the tracer; it records while active
    users = [get_user_model().objects.create_user(n, password="x" * 12) for n in ("ann", "ben")]
    keys = [tokens.create(u, "bench")[1] for u in users]
    pages = [Client() for _ in users]
    for page, user in zip(pages, users, strict=True):
        page.force_login(user)
    api = Client()
    match = services.create_match(
        Match.Kind.LOBBY,
        services.ruleset("standard", 250),
        tuple(services.SeatSpec(Seat.Kind.PLAYER, user=u) for u in users),  # type: ignore[arg-type]
    )
    path = f"/api/v1/matches/{match.public_id}"

    def read(seat: int) -> dict[str, Any]:
        answer = api.get(path, headers={"Authorization": f"Bearer {keys[seat]}"})
        return json.loads(answer.content)

    def post(seat: int, action: dict[str, Any], version: int) -> None:
        answer = api.post(
            path + "/actions",
            json.dumps({"action": action, "version": version}),
            content_type="application/json",
            headers={"Authorization": f"Bearer {keys[seat]}", "Idempotency-Key": uuid.uuid4().hex},
        )
        assert answer.status_code == 200, answer.content

    def to_discard() -> tuple[int, str, int]:
        """Moves by the API until a seat must discard: that seat, a card and the version."""
        seat = 0
        while True:
            view = read(seat)["view"]
            awaiting = (view.get("shuffle") or {}).get("awaiting") or [seat]
            to_act = view["to_act"] if view["to_act"] is not None else awaiting[0]
            if to_act != seat:
                seat = to_act
                continue
            legal = view["legal_actions"]
            discard = next((a for a in legal if a["type"] == "discard"), None)
            if discard is not None:
                return seat, discard["card"], view["version"]
            pick = next((a for a in legal if a["type"] in ("pass", "next_hand")), None)
            pick = pick or next((a for a in legal if a.get("from") == "stock"), legal[0])
            post(seat, pick, view["version"])

    def by_page(seat: int, card: str, version: int) -> None:
        fields = {"move": "discard", "card": card, "version": version}
        answer = pages[seat].post(
            f"/games/{match.public_id}/act", fields, headers={"HX-Request": "true"}
        )
        assert answer.status_code == 200, answer.status_code

    def by_api(seat: int, card: str, version: int) -> None:
        post(seat, {"type": "discard", "card": card}, version)

    def by_event_socket(seat: int, card: str, version: int) -> None:
        frame = {
            "type": "act",
            "id": 1,
            "match": match.public_id,
            "idempotency_key": uuid.uuid4().hex,
            "action": {"type": "discard", "card": card},
            "version": version,
        }
        answer = json.loads(socket_commands.act(users[seat], frame))
        assert answer["status"] == 200, answer

    def by_table_socket(seat: int, card: str, version: int, traced: bool) -> None:
        cookie = f"sessionid={pages[seat].cookies['sessionid'].value}".encode()
        headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)]

        async def send() -> None:
            socket = WebsocketCommunicator(
                application, f"/ws/games/{match.public_id}/", headers=headers
            )
            assert (await socket.connect(timeout=10))[0]
            while not await socket.receive_nothing(timeout=0.5):
                await socket.receive_from()
            frame = {"type": "act", "move": "discard", "card": card, "version": version}
            trace.active = traced
            await socket.send_to(text_data=json.dumps(frame))
            answer: dict[str, Any] = {}
            while answer.get("type") != "answer":
                text = await socket.receive_from(timeout=10)
                answer = json.loads(text) if text.startswith("{") else {}
            trace.active = False
            assert answer["status"] == 200, answer.get("message")
            await socket.disconnect()

        asyncio.run(send())

    doors = {"htmx": by_page, "api": by_api, "event": by_event_socket}
    for attempt in range(2):  # the first warms the caches up; the second is traced
        seat, card, version = to_discard()
        if door == "socket":
            by_table_socket(seat, card, version, traced=attempt == 1)
            continue
        trace.active = attempt == 1
        doors[door](seat, card, version)
        trace.active = False
    trace.stop()
    return trace


if __name__ == "__main__":
    sys.exit(main())
