"""Django's Redis cache with one connection pool per process instead of one per request.

Django keeps a cache backend per thread and per asyncio task (``asgiref.local.Local``), so
under ASGI every request builds a new ``RedisCache``, and with it a new connection pool: a new
TCP connection to Redis for the first cache call of each request (Django ticket #33625). Under
daphne the first cache read of a move (a rate-limit count) took 2.9 ms with it and 0.8 ms
without (docs/performance.md, 2026-12-02 morning), and every request left a connection for the
garbage collector to close.

redis-py's client and pool are thread-safe; here every backend instance of the same servers and
options shares one client, and that client one ``redis.Redis`` per pool: Django's makes a new
one (its option dicts, callbacks and retry) for every command, 1.5% of the server's time
pairing 500 players.

It skips the memcached key warnings (``validate_key``), and counts in one round trip
(``count_up``, for ``ginsite.lib.limits``): Django's ``add`` and ``incr`` took three (a SET NX, then
an EXISTS and the INCR).
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple[tuple[str, ...], str], RedisCacheClient] = {}
_lock = threading.Lock()


class _OneRedisPerPool(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._redis: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._redis.get(index)
        if client is None:
            with _lock:  # the first command of each pool, in any thread
                if index not in self._redis:
                    pool = self._get_connection_pool(write)
                    self._redis[index] = self._client(connection_pool=pool)
                client = self._redis[index]
        return client


class SharedRedisCache(RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _OneRedisPerPool

    @cached_property
    def _cache(self) -> Any:
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = self._class(self._servers, **self._options)
        return client

    def validate_key(self, key: str) -> None:
        """Any key will do: Django's check warns of keys memcached would refuse, on every
        command (1% of the server's time pairing 500 players)."""

    def count_up(self, key: str, timeout: int) -> int:
        """Add one to the count at ``key`` (0 if there is none, forgotten ``timeout`` seconds
        after its first count): the new count. One pipelined INCR and EXPIRE ... NX."""
        key = self.make_and_validate_key(key)
        pipeline = self._cache.get_client(key, write=True).pipeline(transaction=False)
        pipeline.incr(key)
        pipeline.expire(key, timeout, nx=True)
        count, _expiry_set = pipeline.execute()
        return int(count)
