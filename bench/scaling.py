"""What more machines would carry: ``python -m bench.scaling [--machines 1,2,4,8] [--json]``.

A discrete-event simulation of live play spread over machines, fed with what ``bench.live``
measured per move on each part (docs/scaling.md). Moves come at the moments ``bench.live``'s
clients make them (``bench.harness.pacing.moments``: think times of 1 to 3 s per match, a crowd's
bunching). Each move visits, in order:

1. the worker process the mover's requests land on: first the work that is not on the way to
   the opponent's push (the GET before the move, the answer and the idempotency record after
   it: ``app_ms`` x (1 - ``path_share`` - ``push_share``)), then the request up to its commit
   and publish (``app_ms`` x ``path_share``), from where the latency counts; one interpreter,
   so one piece of work at a time;
2. PostgreSQL (``pg_ms`` of its CPU; ``db_cores`` at once);
3. the Redis shard of the match (``redis_ms``; one thread per shard);
4. the worker process of the opponent's socket, which sends the push (``app_ms`` x
   ``push_share``);

plus ``fixed_ms`` that no queue explains (round trips, the commit's flush to disk). The costs
per part are bench.live's (server, PostgreSQL and Redis CPU per move); ``path_share`` and
``fixed_ms`` are fitted so that one machine as bench.live runs it (everything on two cores)
gives the p50 and p95 bench.live measured at 25 to 100 matches (docs/scaling.md shows both).
A move waits where a part is busy; the simulation reports the move -> push latency (p50, p95)
and each part's utilisation. It predicts queueing, not speed-ups nobody built: a part's cost
per move stays as measured.

``--routing match`` sends both players of a match to one process (an owner per match, as a
load balancer hashing the match id would); ``any`` spreads requests and sockets at random,
as today. It prints and never asserts.
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import statistics
from collections import deque
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace

from bench.harness.pacing import MOVE_PERIOD, moments
from bench.harness.stats import percentile

# Service times vary around their mean (a gamma distribution of this shape: coefficient of
# variation 0.5; bench.live's view CPU has p95/p50 = 1.3).
SHAPE = 4.0


@dataclass(frozen=True)
class Costs:
    """Per move, in milliseconds, as bench.live measured them (2026-12-03, pg2, the
    demanding client: a GET and a POST per move, fresh connections), with ``fixed_ms`` and
    ``path_share`` as ``fit`` found them for those runs (docs/scaling.md)."""

    app_ms: float = 15.5
    pg_ms: float = 4.1
    redis_ms: float = 0.28
    fixed_ms: float = 0.0
    path_share: float = 0.3
    push_share: float = 0.1


@dataclass(frozen=True)
class Layout:
    machines: int  # machines running site workers
    cores: int = 2  # per machine: one worker process per core
    db_cores: int = 2  # the PostgreSQL primary's
    redis_shards: int = 1
    routing: str = "any"  # or "match": one process per match
    # Everything on the same cores (bench.live's machine): each part runs slower by the share
    # of the cores the other parts take.
    shared: bool = False

    @property
    def processes(self) -> int:
        return self.machines * self.cores


# bench.live's machine: two workers, PostgreSQL and Redis on the same two cores.
ONE_MACHINE = Layout(1, cores=2, db_cores=2, shared=True)


@dataclass
class Outcome:
    matches: int
    layout: Layout
    moves: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    busy: dict[str, float] = field(default_factory=dict)


class Station:
    """Servers of one part with a first-come-first-served queue of (job, step)."""

    def __init__(self, servers: int) -> None:
        self.free, self.queue = servers, deque[tuple[int, int]]()
        self.busy_ms = 0.0


def simulate(
    matches: int, layout: Layout, costs: Costs, seconds: float = 60.0, seed: int = 1
) -> Outcome:
    draw = random.Random(seed)

    parts = (costs.app_ms, costs.pg_ms, costs.redis_ms)
    if layout.shared:
        # Each part runs slower by the share of the cores the other parts take.
        per_core = matches / MOVE_PERIOD / 1000 / layout.cores  # moves per ms per core
        parts = tuple(own / max(0.05, 1 - per_core * (sum(parts) - own)) for own in parts)
    app_ms, pg_ms, redis_ms = parts

    def service(mean: float) -> float:
        return draw.gammavariate(SHAPE, mean / SHAPE) if mean > 0 else 0.0

    processes = [Station(1) for _ in range(layout.processes)]
    database = Station(layout.db_cores)
    shards = [Station(1) for _ in range(layout.redis_shards)]
    arrivals = sorted(
        (moment * 1000, i)
        for i in range(matches)
        for moment in moments(i, matches, 0.0, seconds, "random")
    )
    routes: list[list[tuple[Station, float]]] = []
    for _at, match in arrivals:
        if layout.routing == "match":
            mover = opponent = processes[match % len(processes)]
        else:
            mover, opponent = draw.choice(processes), draw.choice(processes)
        routes.append(
            [
                (mover, service(app_ms * (1 - costs.path_share - costs.push_share))),
                (mover, service(app_ms * costs.path_share)),
                (database, service(pg_ms)),
                (shards[match % len(shards)], service(redis_ms)),
                (opponent, service(app_ms * costs.push_share)),
            ]
        )
    done, timed = _run(arrivals, routes)
    latencies = sorted(done[j] - timed[j] + costs.fixed_ms for j in range(len(arrivals)))
    span = seconds * 1000
    busy = {
        "processes (mean)": statistics.mean(p.busy_ms for p in processes) / span,
        "postgres": database.busy_ms / span / layout.db_cores,
        "redis (busiest shard)": max(s.busy_ms for s in shards) / span,
    }
    return Outcome(
        matches,
        layout,
        len(latencies),
        percentile(latencies, 50),
        percentile(latencies, 95),
        percentile(latencies, 99),
        {k: round(v, 2) for k, v in busy.items()},
    )


def _run(
    arrivals: Sequence[tuple[float, int]], routes: list[list[tuple[Station, float]]]
) -> list[float]:
    """Each job through its route: when each one left its last station, and when it came to
    its second (where the latency counts from)."""
    done, timed = [0.0] * len(routes), [0.0] * len(routes)
    events: list[tuple[float, int, int, int]] = []  # (time, order, job, step): arrive at step
    order = 0
    for job, (at, _match) in enumerate(arrivals):
        events.append((at, order, job, 0))
        order += 1
    heapq.heapify(events)
    finishing: list[tuple[float, int, int, int]] = []  # (time, order, job, step): leave step

    def start(now: float, job: int, step: int) -> None:
        nonlocal order
        station, took = routes[job][step]
        station.busy_ms += took
        order += 1
        heapq.heappush(finishing, (now + took, order, job, step))

    while events or finishing:
        if finishing and (not events or finishing[0] <= events[0]):
            now, _o, job, step = heapq.heappop(finishing)
            station = routes[job][step][0]
            if station.queue:
                start(now, *station.queue.popleft())
            else:
                station.free += 1
            if step + 1 < len(routes[job]):
                order += 1
                heapq.heappush(events, (now, order, job, step + 1))
            else:
                done[job] = now
        else:
            now, _o, job, step = heapq.heappop(events)
            if step == 1:
                timed[job] = now
            station = routes[job][step][0]
            if station.free:
                station.free -= 1
                start(now, job, step)
            else:
                station.queue.append((job, step))
    return done, timed


def fit(measured: dict[int, tuple[float, float]], costs: Costs) -> tuple[Costs, float]:
    """``fixed_ms`` and ``path_share`` that bring one machine as bench.live runs it closest to
    ``measured`` ({matches: (p50, p95)}, bench.live's move -> push): the fitted costs and the
    mean relative error left."""
    best: tuple[float, Costs] | None = None
    for fixed in (f / 2 for f in range(0, 31)):
        for share in (s / 20 for s in range(2, 17)):
            if share + costs.push_share >= 1:
                continue
            tried = replace(costs, fixed_ms=fixed, path_share=share)
            error = 0.0
            for matches, (p50, p95) in measured.items():
                outcome = simulate(matches, ONE_MACHINE, tried, seconds=30.0)
                error += abs(outcome.p50_ms - p50) / p50 + abs(outcome.p95_ms - p95) / p95
            if best is None or error < best[0]:
                best = (error, tried)
    assert best is not None
    return best[1], best[0] / (2 * len(measured))


def largest(layout: Layout, costs: Costs, goal_ms: float, step: int = 25) -> int:
    """The most matches (in steps of ``step``) whose move -> push p95 stays within the goal."""
    matches, best = step, 0
    while matches <= 20_000:
        if simulate(matches, layout, costs, seconds=30.0).p95_ms > goal_ms:
            break
        best, matches = matches, matches + step
    return best


def parse_measured(text: str) -> dict[int, tuple[float, float]]:
    """``"25:12.0:19.5,50:13.1:24.0"``: matches, push p50 and p95 (ms) as bench.live printed."""
    found = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        matches, p50, p95 = item.split(":")
        found[int(matches)] = (float(p50), float(p95))
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, value in asdict(Costs()).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=float, default=value)
    parser.add_argument(
        "--measured",
        default="",
        help="bench.live's pg2 move -> push, 'matches:p50:p95,...': fit fixed-ms and path-share",
    )
    parser.add_argument("--machines", default="1,2,4,8,16", help="site machines to simulate")
    parser.add_argument("--cores", type=int, default=2, help="per site machine")
    parser.add_argument("--db-cores", type=int, default=8)
    parser.add_argument("--redis-shards", type=int, default=1)
    parser.add_argument("--routing", choices=("any", "match"), default="any")
    parser.add_argument("--goal-ms", type=float, default=25.0, help="move -> push p95")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    costs = Costs(*(getattr(args, name) for name in asdict(Costs())))
    measured = parse_measured(args.measured)
    report: dict[str, object] = {}
    if measured:
        costs, error = fit(measured, costs)
        report["fit_error"] = round(error, 3)
        print(f"fitted to bench.live (mean error {error:.0%} of each p50 and p95)")
    report["costs"] = asdict(costs)
    print(f"bench.scaling, per move: {costs}")
    print("one machine as bench.live runs it (2 workers, PostgreSQL and Redis on its 2 cores):")
    rows = []
    for matches in sorted({25, 50, 75, 100, *measured}):
        outcome = simulate(matches, ONE_MACHINE, costs)
        seen = measured.get(matches)
        shown = f"; bench.live {seen[0]:.1f} / {seen[1]:.1f} ms" if seen else ""
        print(
            f"  {matches:5d} matches: push p50 / p95 {outcome.p50_ms:5.1f} / "
            f"{outcome.p95_ms:5.1f} ms{shown}; busy {outcome.busy}"
        )
        rows.append(asdict(outcome))
    report["one_machine"] = rows
    print(
        f"site machines of {args.cores} cores; PostgreSQL on {args.db_cores} cores; "
        f"{args.redis_shards} Redis shard(s); routing {args.routing}:"
    )
    spread = []
    for machines in (int(m) for m in args.machines.split(",") if m):
        layout = Layout(machines, args.cores, args.db_cores, args.redis_shards, args.routing)
        most = largest(layout, costs, args.goal_ms)
        outcome = simulate(most, layout, costs) if most else None
        shown = f"p95 {outcome.p95_ms:.1f} ms, busy {outcome.busy}" if outcome else ""
        print(f"  {machines:3d} machine(s): {most:6d} matches within {args.goal_ms:.0f} ms {shown}")
        spread.append({"machines": machines, "largest_matches": most})
    report["machines"] = spread
    if args.json:
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
