"""Channels' session and user middleware for the sockets, with the user looked up through
``ginsite.lib.dbwork.in_thread``: Channels' own ``get_user`` closes its connection outside the
context asgiref runs it in, so each socket's sign-in kept a pooled PostgreSQL connection out
of the pool for good (tests/distributed/test_pooled_connections.py)."""

from __future__ import annotations

from typing import Any

from channels import auth
from channels.sessions import CookieMiddleware, SessionMiddleware

from ginsite.lib.dbwork import in_thread

_get_user = in_thread(auth.get_user.func)


class AuthMiddleware(auth.AuthMiddleware):
    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        scope["user"]._wrapped = await _get_user(scope)


def AuthMiddlewareStack(inner: Any) -> Any:  # noqa: N802 (Channels' name)
    return CookieMiddleware(SessionMiddleware(AuthMiddleware(inner)))
