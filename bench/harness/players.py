"""Players for the benchmarks: ``python -m bench.harness.players COUNT PREFIX``.

Run with the server's environment (``DATABASE_URL`` and so on) before the server starts. Makes
COUNT users ``PREFIX0000``, ``PREFIX0001``... without passwords (hashing one costs a quarter of
a second), each with a personal API token, straight in the database: what a person does once
in Settings is not what the benchmark measures. Progress goes to stderr; stdout gets one JSON
list of ``[username, token]`` pairs.
"""

from __future__ import annotations

import json
import os
import sys

import django

BATCH = 50


def main(argv: list[str]) -> None:
    count, prefix = int(argv[0]), argv[1]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ginsite.settings")
    django.setup()

    from django.contrib.auth import get_user_model
    from django.db import transaction

    from lobby.accounts import tokens

    user_model = get_user_model()
    made: list[tuple[str, str]] = []
    for start in range(0, count, BATCH):
        with transaction.atomic():
            for i in range(start, min(start + BATCH, count)):
                user = user_model.objects.create_user(username=f"{prefix}{i:04d}", password=None)
                _token, secret = tokens.create(user, "bench.live")
                made.append((user.get_username(), secret))
        print(f"  created {len(made)}/{count} players", file=sys.stderr, flush=True)
    json.dump(made, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
