"""Where a move's server time goes: N moves through the JSON API, in process, profiled.

    .venv/bin/python -m bench.move_profile [--moves 400] [--door post|socket] [--html out.html]

Sets up its own throwaway database (SQLite, or a ``test_`` copy of DATABASE_URL's), two
players with tokens and a lobby match, then makes moves as two API clients would (with an
idempotency key, the version, alternating seats, a new match when one ends): posted through
Django's test client (``--door post``), or as the event socket's ``act`` frames handed to
``lobby.events.socket_commands.act`` (``--door socket``), under pyinstrument. Prints the median and
p95 time per move, the interpreter's CPU per move (the thread's, PostgreSQL's not included)
and the profile's top frames. It runs the door only: no ASGI server, no sockets
(``bench.live`` measures those). Prints, never asserts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--html", help="also write pyinstrument's HTML report here")
    parser.add_argument(
        "--door",
        choices=("post", "socket"),
        default="post",
        help="the moves as HTTP POSTs, or as the event socket's act frames",
    )
    parser.add_argument(
        "--no-profile",
        action="store_true",
        help="time the moves without the profiler (its overhead roughly doubles them)",
    )
    parser.add_argument(
        "--sql", action="store_true", help="also list the SQL statements of the last move"
    )
    args = parser.parse_args(argv)

    # Two players post hundreds of moves a minute: the API's rate limit is not what is measured.
    os.environ.setdefault("API_RATE_LIMIT", "1000000")
    with throwaway_database():
        return _run(args)


@contextmanager
def throwaway_database() -> Iterator[None]:
    """Django set up with the tests' settings, on a database of its own dropped afterwards."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    print("creating a throwaway database...", flush=True)
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        yield
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)


def _run(args: argparse.Namespace) -> int:
    import json

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from pyinstrument import Profiler

    from games import services
    from games.models import Match, Seat
    from ginsite.lib import after_commit as pushes
    from lobby.accounts import tokens
    from lobby.events import socket_commands

    # When the move's pushes leave (right after its commit): the part of a POST that an
    # opponent waits for. What follows (the answer, the idempotency record) is not.
    pushed: list[float] = []
    send_now = pushes.send_now

    def timed_send_now(messages):  # type: ignore[no-untyped-def]
        pushed.append(time.perf_counter())
        return send_now(messages)

    pushes.send_now = timed_send_now

    users = [get_user_model().objects.create_user(n, password="x" * 12) for n in ("ann", "ben")]
    keys = [tokens.create(u, "bench")[1] for u in users]
    client = Client()

    def new_match() -> Match:
        return services.create_match(
            Match.Kind.LOBBY,
            services.ruleset("standard", 250),
            tuple(services.SeatSpec(Seat.Kind.PLAYER, user=u) for u in users),  # type: ignore[arg-type]
        )

    def post(seat: int, path: str, body: dict) -> dict:
        response = client.post(
            "/api/v1" + path,
            json.dumps(body),
            content_type="application/json",
            headers={"Authorization": f"Bearer {keys[seat]}", "Idempotency-Key": uuid.uuid4().hex},
        )
        assert response.status_code == 200, response.content
        return response.json()

    def act(seat: int, path: str, body: dict) -> dict:
        match_id = path.split("/")[2]
        key = uuid.uuid4().hex
        frame = {"type": "act", "id": 1, "match": match_id, "idempotency_key": key, **body}
        answer = json.loads(socket_commands.act(users[seat], frame))
        assert answer["status"] == 200, answer
        return answer["body"]

    make = act if args.door == "socket" else post

    def read(seat: int, match: Match) -> dict:
        headers = {"Authorization": f"Bearer {keys[seat]}"}
        return json.loads(client.get(f"/api/v1/matches/{match.public_id}", headers=headers).content)

    statements: dict[str, int] = {"n": 0}
    last_move: list[str] = []

    def count_statement(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        statements["n"] += 1
        last_move.append(sql)
        return execute(sql, params, many, context)

    match = new_match()
    detail = read(0, match)
    times: list[float] = []
    cpu: list[float] = []
    until_push: list[float] = []
    profiler = None if args.no_profile else Profiler(interval=0.0005)
    print(f"posting {args.moves} moves...", flush=True)
    if profiler is not None:
        profiler.start()
    while len(times) < args.moves:
        view = detail["view"]
        if detail["status"] != "active":
            match = new_match()
            detail = read(0, match)
            continue
        # The player to move; while the hand waits for seeds, a seat whose seed it awaits.
        awaiting = (view.get("shuffle") or {}).get("awaiting") or [0]
        seat = view["to_act"] if view["to_act"] is not None else awaiting[0]
        if seat != detail["seat"]:
            detail = read(seat, match)  # the other player's view, as their stream would bring
            continue
        legal = view["legal_actions"]
        pick = next((a for a in legal if a["type"] in ("pass", "next_hand")), None)
        pick = pick or next((a for a in legal if a.get("from") == "stock"), None)
        pick = pick or next((a for a in legal if a["type"] == "discard"), legal[0])
        last_move.clear()
        pushed.clear()
        started, started_cpu = time.perf_counter(), time.thread_time()
        with connection.execute_wrapper(count_statement):
            detail = make(
                seat,
                f"/matches/{match.public_id}/actions",
                {"action": pick, "version": view["version"]},
            )
        times.append(time.perf_counter() - started)
        cpu.append(time.thread_time() - started_cpu)
        if pushed:
            until_push.append(pushed[0] - started)
        if len(times) % 100 == 0:
            print(f"  {len(times)}/{args.moves}", flush=True)
    if profiler is not None:
        profiler.stop()
    times.sort()
    until_push.sort()
    print(
        f"\n{len(times)} moves ({connection.vendor}, {args.door}): "
        f"median {statistics.median(times) * 1000:.2f} ms, "
        f"p95 {times[int(len(times) * 0.95)] * 1000:.2f} ms (view stack only, in process); "
        f"until the pushes leave: median {statistics.median(until_push) * 1000:.2f} ms, "
        f"p95 {until_push[int(len(until_push) * 0.95)] * 1000:.2f} ms; "
        f"{statements['n'] / len(times):.1f} SQL statements per move (transactions included); "
        f"the interpreter's CPU per move: median {statistics.median(cpu) * 1000:.2f} ms, "
        f"mean {statistics.fmean(cpu) * 1000:.2f} ms\n"
    )
    if profiler is not None:
        print(profiler.output_text(unicode=False, color=False, show_all=False))
    if args.sql:
        print(f"The last move's {len(last_move)} statements:")
        for number, sql in enumerate(last_move, 1):
            print(f"{number:3}. {sql[:160]}")
    if args.html and profiler is not None:
        with open(args.html, "w") as out:
            out.write(profiler.output_html())
    return 0


if __name__ == "__main__":
    sys.exit(main())
