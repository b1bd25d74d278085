"""The database's side of ``bench.arena``: ``python -m bench.arena.check make MINUTES`` makes
the running arena (casual, standard to 50, bots allowed) and prints its id;
``python -m bench.arena.check check ID`` prints one JSON object: the arena's matches by outcome,
every match's end and the next pairing of each of its players (for the time between them),
players seated in two of its matches at once, and whether the stored points, streaks, wins and
games equal a recount from the stored matches in the order they were counted.

Run with the server's environment (``DATABASE_URL``).
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter, defaultdict
from datetime import timedelta
from typing import Any

import django


def make(minutes: float) -> str:
    from django.utils import timezone

    from lobby.arena.models import Arena

    now = timezone.now()
    arena = Arena.objects.create(
        kind=Arena.Kind.PRIVATE,
        name="bench.arena",
        preset="standard",
        target=50,
        rated=False,
        allow_bots=True,
        starts_at=now,
        ends_at=now + timedelta(minutes=minutes),
    )
    return arena.public_id


def check(public_id: str) -> dict[str, Any]:
    from lobby.arena import points
    from lobby.arena.models import Arena, ArenaMatch, ArenaPlayer

    arena = Arena.objects.get(public_id=public_id)
    played = list(ArenaMatch.objects.filter(arena=arena).order_by("started_at", "pk"))
    by_player: dict[int, list[ArenaMatch]] = defaultdict(list)
    for m in played:
        by_player[m.first_id].append(m)
        by_player[m.second_id].append(m)
    overlapping = 0
    gaps = []
    for matches in by_player.values():
        for before, after in zip(matches, matches[1:], strict=False):
            if before.counted_at is None or after.started_at < before.counted_at:
                overlapping += 1
            else:
                gaps.append((after.started_at - before.counted_at).total_seconds())
    # The recount: every counted match in the order it was counted, by the rules of ``points``.
    recount: dict[int, dict[str, int]] = defaultdict(Counter)  # type: ignore[arg-type]
    for m in sorted((m for m in played if m.counted_at), key=lambda m: (m.counted_at, m.pk)):
        if m.outcome != "win":
            continue
        won, lost = (m.first_id, m.second_id) if m.winner_seat == 0 else (m.second_id, m.first_id)
        gained = points.win_points(recount[won]["streak"])
        recount[won]["points"] += gained
        recount[won]["streak"] += 1
        recount[won]["wins"] += 1
        recount[won]["games"] += 1
        recount[lost]["streak"] = 0
        recount[lost]["games"] += 1
        stored = m.first_points if m.winner_seat == 0 else m.second_points
        if stored != gained:
            recount[won]["stored_differs"] += 1
    differ = 0
    for p in ArenaPlayer.objects.filter(arena=arena):
        mine = recount.get(p.user_id, Counter())
        fields = ("points", "streak", "wins", "games")
        if any(getattr(p, f) != mine.get(f, 0) for f in fields) or mine.get("stored_differs"):
            differ += 1
    return {
        "players": ArenaPlayer.objects.filter(arena=arena).count(),
        "matches": len(played),
        "outcomes": dict(Counter(m.outcome or "running" for m in played)),
        "finished": arena.finished_at is not None,
        "seated_twice_at_once": overlapping,
        "end_to_next_pairing_seconds": gaps,
        "standings_differ_from_recount": differ,
        "ended_at": [m.counted_at.timestamp() for m in played if m.counted_at],
    }


def main(argv: list[str]) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")
    django.setup()
    if argv[0] == "make":
        print(make(float(argv[1])))
    else:
        json.dump(check(argv[1]), sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
