"""The site configurations a benchmark runs (embedded, pg1 to pg8), each on a fresh database."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from bench.harness.pacing import say
from bench.harness.servers import run_quiet
from bench.harness.stores import create_database, database_url, drop_database, flush_redis

# The options ginsite/settings.py gives its default SQLite database, as a DATABASE_URL query.
SQLITE_OPTIONS = "transaction_mode=IMMEDIATE&timeout=20&init_command=PRAGMA%20journal_mode%3DWAL"


@dataclass(frozen=True)
class Config:
    name: str
    title: str
    workers: int
    distributed: bool
    # Each worker's database pool (and so its HTTP lanes), when the default's 20 per worker
    # would go over PostgreSQL's max_connections (100).
    pool_max: int | None = None

    def title_under(self, server: str) -> str:
        """The title, naming the ASGI server the run uses."""
        return self.title.replace("daphne", server)


CONFIGS = {
    c.name: c
    for c in (
        Config("embedded", "SQLite file, in-memory channel layer, 1 daphne", 1, False),
        Config("pg1", "PostgreSQL + Redis, 1 daphne worker", 1, True),
        Config("pg2", "PostgreSQL + Redis, 2 daphne workers", 2, True),
        Config("pg4", "PostgreSQL + Redis, 4 daphne workers", 4, True),
        Config("pg8", "PostgreSQL + Redis, 8 daphne workers (pools of 10)", 8, True, 10),
    )
}


async def site_database(
    stack: ExitStack, config: Config, args: argparse.Namespace, label: str, tag: str = ""
) -> tuple[dict[str, str], Path]:
    """The environment of a fresh, migrated site database for ``config`` (PostgreSQL, dropped
    when ``stack`` closes, with a flushed Redis; or SQLite in a temporary directory), and that
    directory, where the servers' logs go too."""
    prefix = label.replace("_", "-") + "-"
    log_dir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=prefix)))
    env = base_env()
    if config.distributed:
        name = f"{label}_{os.getpid()}_{config.name}"
        say(f"{tag} creating database {name}, flushing Redis {args.redis}".lstrip())
        create_database(args.postgres, name)
        stack.callback(drop_database, args.postgres, name)
        flush_redis(args.redis)
        env.update(DATABASE_URL=database_url(args.postgres, name), REDIS_URL=args.redis)
        if config.pool_max is not None:
            env["DB_POOL_MAX"] = str(config.pool_max)
    else:
        env["DATABASE_URL"] = f"sqlite:///{log_dir}/db.sqlite3?{SQLITE_OPTIONS}"
        # As the site's own SQLite settings keep them (DATABASE_URL alone would not).
        env.setdefault("CONN_MAX_AGE", "60")
    say(f"{tag} migrating".lstrip())
    await run_quiet([sys.executable, "manage.py", "migrate", "-v0"], env)
    return env, log_dir


def base_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="ginsite.settings",
        DEBUG="0",
        SECRET_KEY="bench-live-" + secrets.token_hex(24),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        PYTHONUNBUFFERED="1",
    )
    return env
