"""What the database says after ``bench.pool``: ``python -m bench.pool.check``.

Run with the server's environment (``DATABASE_URL``) after the run. Prints one JSON object:
the pool's entries by status, and every way a pairing could have gone wrong that a client
might not notice by itself: a player paired (or seated in a lobby match) more than once, a
match whose two entries are not its two seats, a paired player without a stored ``paired``
event for that match (one who would never hear of it, whatever the socket did), and a player
with more than one ``paired`` event.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from typing import Any

import django


def check() -> dict[str, Any]:
    from games.models import Match, Seat
    from lobby.models import PlayerEvent, PoolEntry

    entries = list(PoolEntry.objects.values("user_id", "status", "match_id", "opponent_id"))
    paired = [e for e in entries if e["status"] == PoolEntry.Status.PAIRED]
    per_user = Counter(e["user_id"] for e in paired)
    seats = Seat.objects.filter(match__kind=Match.Kind.LOBBY, user__isnull=False)
    seated = Counter(seats.values_list("user_id", flat=True))
    seats_of: dict[int, set[int]] = {}
    for match_id, user_id in seats.values_list("match_id", "user_id"):
        seats_of.setdefault(match_id, set()).add(user_id)
    entries_of: dict[int | None, set[int]] = {}
    for e in paired:
        entries_of.setdefault(e["match_id"], set()).add(e["user_id"])
    public = dict(
        Match.objects.filter(pk__in=[m for m in entries_of if m]).values_list("pk", "public_id")
    )
    heard = Counter(
        (user_id, str(payload.get("match")))
        for user_id, payload in PlayerEvent.objects.filter(kind="paired").values_list(
            "user_id", "payload"
        )
    )
    return {
        "entries": dict(Counter(e["status"] for e in entries)),
        "matches": len(entries_of),
        "players_paired_twice": sum(1 for n in per_user.values() if n > 1),
        "players_seated_twice": sum(1 for n in seated.values() if n > 1),
        "matches_not_of_two": sum(
            1
            for match_id, users in entries_of.items()
            if match_id is None or len(users) != 2 or seats_of.get(match_id) != users
        ),
        "paired_unheard": sum(
            1 for e in paired if heard[(e["user_id"], str(public.get(e["match_id"])))] == 0
        ),
        "paired_events_twice": sum(1 for n in Counter(u for u, _m in heard).values() if n > 1),
    }


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")
    django.setup()
    json.dump(check(), sys.stdout)


if __name__ == "__main__":
    main()
