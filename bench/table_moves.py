"""The table page's moves, posted as forms or sent over the table's own socket, timed from
outside against a real daphne (issue 27).

    .venv/bin/python -m bench.table_moves [--matches 20] [--seconds 30] [--configs embedded,pg1]

Each match has two signed-in pages, each holding its table socket (/ws/games/<id>/) open as
a browser does, reading every frame. A page moves as a browser would at about one move every
two seconds per match, choosing from the buttons its table shows: either its form's POST
(``POST /games/<id>/act`` with the session, the CSRF token and ``HX-Request``, on a
keep-alive connection, as htmx sends it) or the same fields as an ``act`` frame over its
socket. The doors run in turn on the same fresh site, so the machine's pace is shared.

Prints, per door: the mover's answer (the POST's, or the socket's ``answer`` frame) and the
opponent's push (the frame that brings the new version), p50 and p95; the server's CPU per
move; and the errors. Prints, never asserts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import secrets
import subprocess
import sys
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.harness.configs import CONFIGS, site_database
from bench.harness.connections import HTTP_TIMEOUT, Http
from bench.harness.pacing import MOVE_PERIOD, say
from bench.harness.processes import pace_ms
from bench.harness.servers import ROOT, Server
from bench.harness.stats import summarize

VERSION = re.compile(r'id="table-version" data-version="(\d+)"')
ACTIONS = re.compile(r'<(?:div|section)[^>]*id="actions".*?(?=<(?:div|section)[^>]*id="|\Z)', re.S)
BUTTON = re.compile(r'name="move" value="(\w+)"')
CARD = re.compile(r'<input[^>]*name="card" value="(\w\w)"([^>]*)>')
AFTER = re.compile(r'data-after="(\d+)"')
# Never a knock: the hands last, so every move is an ordinary turn of play.
PREFERENCE = ("seed", "next_hand", "pass", "draw_stock", "discard")


def setup(pairs: int) -> None:
    """(Run in the site's environment.) ``pairs`` lobby matches between signed-in players:
    prints their ids and the two players' session cookies as JSON."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from games import services
    from games.models import Match, Seat

    made = []
    for i in range(pairs):
        users = [
            get_user_model().objects.create_user(f"t{i}{side}", password=secrets.token_hex(8))
            for side in "ab"
        ]
        match = services.create_match(
            Match.Kind.LOBBY,
            services.ruleset("standard", 250),
            tuple(services.SeatSpec(Seat.Kind.PLAYER, user=u) for u in users),
        )
        sessions = []
        for user in users:
            client = Client()
            client.force_login(user)
            sessions.append(client.cookies["sessionid"].value)
        made.append({"match": match.public_id, "sessions": sessions})
    print(json.dumps(made))


@dataclass
class Page:
    """One player's table page: its socket, its HTTP connection, what it shows."""

    session: str
    ws: ClientConnection | None = None
    http: Http | None = None
    version: int = -1
    actions: str = ""
    cards: dict[str, int] = field(default_factory=dict)
    answers: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    # When the other page sent the move that brings each version: the push is awaited.
    waiting: dict[int, float] = field(default_factory=dict)
    listener: asyncio.Task[None] | None = None

    def take(self, html: str) -> None:
        """What a frame or an answer brings: the position, the buttons, the hand."""
        found = VERSION.search(html)
        if found is None or int(found.group(1)) < self.version:
            return
        self.version = int(found.group(1))
        if (actions := ACTIONS.search(html)) is not None:
            self.actions = actions.group(0)
        if 'id="hand"' in html:
            self.cards = {
                code: int(after.group(1)) if (after := AFTER.search(rest)) else 0
                for code, rest in CARD.findall(html)
                if "disabled" not in rest
            }

    def choice(self) -> dict[str, str] | None:
        """The fields of the move its buttons offer, or None when it has none."""
        offered = set(BUTTON.findall(self.actions))
        move = next((m for m in PREFERENCE if m in offered), None)
        if move is None:
            return None
        fields = {"move": move, "version": str(self.version)}
        if move == "discard":
            if not self.cards:
                return None
            fields["card"] = min(self.cards, key=self.cards.__getitem__)
        if move == "seed" or "data-seed-wanted" in self.actions:
            fields["seed"] = secrets.token_hex(16)
        return fields


@dataclass
class Run:
    door: str
    answers: list[float] = field(default_factory=list)
    pushes: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    moves: int = 0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


async def listen(page: Page, runs: list[Run]) -> None:
    """Read every frame of the page's socket, as the browser does: the answers to its moves,
    and the pushes (timed when they bring a version the other page moved to)."""
    assert page.ws is not None
    try:
        async for frame in page.ws:
            text = frame if isinstance(frame, str) else frame.decode()
            if text.startswith("{"):
                message = json.loads(text)
                if message.get("type") == "answer":
                    await page.answers.put(message)
                elif message.get("type") == "error":
                    runs[-1].error(f"error frame: {message.get('message')}")
                continue
            page.take(text)
            sent = page.waiting.pop(page.version, None)
            if sent is not None:
                runs[-1].pushes.append(time.perf_counter() - sent)
    except ConnectionClosed:
        runs[-1].error("table socket closed")


async def post(page: Page, match: str, fields: dict[str, str], port: int) -> tuple[int, str]:
    assert page.http is not None
    csrf = "c" * 32
    body = urlencode(fields).encode()
    head = [
        f"POST /games/{match}/act HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        f"Origin: http://127.0.0.1:{port}",
        f"Cookie: sessionid={page.session}; csrftoken={csrf}",
        f"X-CSRFToken: {csrf}",
        "HX-Request: true",
        "Content-Type: application/x-www-form-urlencoded",
        f"Content-Length: {len(body)}",
    ]
    request = ("\r\n".join(head) + "\r\n\r\n").encode() + body
    async with asyncio.timeout(HTTP_TIMEOUT):
        reply = await page.http._send(request)
    return reply.status, reply.body.decode()


async def play(
    door: str, games: list[tuple[str, list[Page]]], seconds: float, port: int, run: Run
) -> None:
    """Every match moves about every MOVE_PERIOD seconds for ``seconds``, through ``door``."""

    async def one(match: str, pages: list[Page]) -> None:
        end = time.perf_counter() + seconds
        await asyncio.sleep(random.uniform(0, MOVE_PERIOD))
        while time.perf_counter() < end:
            await asyncio.sleep(random.uniform(0.5, 1.5) * MOVE_PERIOD)
            mover = next((i for i, p in enumerate(pages) if p.choice() is not None), None)
            if mover is None:
                continue
            page, other = pages[mover], pages[1 - mover]
            fields = page.choice()
            assert fields is not None
            version = int(fields["version"]) + 1
            started = other.waiting[version] = time.perf_counter()
            if door == "post":
                status, html = await post(page, match, fields, port)
            else:
                assert page.ws is not None
                await page.ws.send(json.dumps({"type": "act", **fields}))
                async with asyncio.timeout(HTTP_TIMEOUT):
                    answer = await page.answers.get()
                status, html = int(answer["status"]), str(answer.get("html", ""))
            if status != 200:
                run.error(f"{door} {status}")
                other.waiting.pop(version, None)
                continue
            run.answers.append(time.perf_counter() - started)
            run.moves += 1
            page.take(html)

    await asyncio.gather(*(one(match, pages) for match, pages in games))


async def open_pages(
    made: list[dict[str, Any]], port: int, runs: list[Run]
) -> list[tuple[str, list[Page]]]:
    """Both pages of every match, their sockets open and their first frame read."""
    games = []
    for game in made:
        pages = [Page(session) for session in game["sessions"]]
        for page in pages:
            page.ws = await connect(
                f"ws://127.0.0.1:{port}/ws/games/{game['match']}/",
                additional_headers={
                    "Cookie": f"sessionid={page.session}",
                    "Origin": f"http://127.0.0.1:{port}",
                },
                max_size=None,
                compression=None,
            )
            page.take(str(await page.ws.recv()))
            page.http = Http(port)
            page.listener = asyncio.create_task(listen(page, runs))
        games.append((game["match"], pages))
    return games


async def run_config(config_name: str, args: argparse.Namespace) -> None:
    config = CONFIGS[config_name]
    with ExitStack() as stack:
        env, log_dir = await site_database(stack, config, args, "bench_table")
        server = Server.start("daphne", "ginsite.asgi:application", env, log_dir)
        stack.callback(server.stop)
        await server.wait_ready("/health/")
        made_by = subprocess.run(
            [sys.executable, "-m", "bench.table_moves", "--setup", str(args.matches)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        if made_by.returncode:
            raise RuntimeError(f"setting up the matches failed:\n{made_by.stderr}")
        made = json.loads(made_by.stdout.splitlines()[-1])
        runs: list[Run] = [Run("setup")]
        games = await open_pages(made, server.port, runs)
        say(f"[{config_name}] {len(games)} matches, two pages each, sockets open")
        for door in args.doors.split(","):
            runs.append(Run(door))
            cpu = server.cpu()
            await play(door, games, args.seconds, server.port, runs[-1])
            await asyncio.sleep(1.0)  # the last pushes' renders
            used = server.cpu() - cpu
            run = runs[-1]
            a, p = summarize(run.answers), summarize(run.pushes)
            per_move = used / run.moves * 1000 if run.moves else float("nan")
            say(
                f"[{config_name}] {door:6}: {run.moves} moves; answer p50/p95 "
                f"{a.p50:.1f}/{a.p95:.1f} ms; opponent's push p50/p95 {p.p50:.1f}/{p.p95:.1f} ms "
                f"({len(run.pushes)} heard); server CPU {per_move:.2f} ms per move; "
                f"errors {run.errors or 0}"
            )
        for _match, pages in games:
            for page in pages:
                if page.listener is not None:
                    page.listener.cancel()
                if page.ws is not None:
                    await page.ws.close()
                if page.http is not None:
                    page.http.close()


async def main_async(args: argparse.Namespace) -> None:
    say(f"machine pace: {pace_ms():.0f} ms on the fixed loop (usual 115-122)")
    for name in args.configs.split(","):
        await run_config(name, args)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--configs", default="embedded", help="of bench.live's: embedded, pg1")
    parser.add_argument("--doors", default="post,socket,post,socket")
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/1")
    args = parser.parse_args(argv)
    if args.setup is not None:
        setup(args.setup)
        return
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
