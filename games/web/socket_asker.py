"""Who is asking, for the table's socket (``games.web.table_socket``): the reader a socket serves,
found once at the handshake from the account and the cookies it carries (``games.access``: a
guest is known by the key in those cookies). A socket that is neither a seat nor a watcher
gets none, and is closed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import access


@dataclass
class TableReader:
    """Who a socket serves, resolved once at connect."""

    match_pk: int
    public_id: str
    group: str
    seat: int | None  # None: a watcher
    key_group: str | None = None  # told when the key that gave the seat is replaced


def reader(public_id: str, user: Any, cookies: dict[str, str]) -> TableReader | None:
    caller = access.Caller(user, cookies)
    asker = access.find(public_id, caller)
    if asker is None or not asker.at_table:
        return None
    key_group = access.socket_key_group(asker, caller)
    match = asker.match
    return TableReader(match.pk, match.public_id, match.group_name, asker.seat, key_group)
