"""PostgreSQL and Redis for a run: a database made and dropped, Redis flushed, stored events."""

from __future__ import annotations

import contextlib
from urllib.parse import urlsplit, urlunsplit


def database_url(admin_url: str, name: str) -> str:
    return urlunsplit(urlsplit(admin_url)._replace(path="/" + name))


def create_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def stored_events(database: str) -> dict[str, dict[str, int]]:
    """Per kind, how many player events the server has stored and the size of their payloads
    (a ``DATABASE_URL``: PostgreSQL, or SQLite's ``sqlite:///path?...``)."""
    if database.startswith("sqlite:"):
        import sqlite3

        with contextlib.closing(sqlite3.connect(urlsplit(database).path)) as db:
            rows = db.execute(
                "SELECT kind, COUNT(*), SUM(LENGTH(payload)) FROM lobby_playerevent GROUP BY kind"
            ).fetchall()
    else:
        import psycopg

        with psycopg.connect(database) as conn:
            rows = conn.execute(
                "SELECT kind, COUNT(*), SUM(LENGTH(payload::text)) FROM lobby_playerevent "
                "GROUP BY kind"
            ).fetchall()
    return {str(kind): {"events": int(n), "bytes": int(size or 0)} for kind, n, size in rows}


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()
