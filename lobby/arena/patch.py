"""What an arena page's socket sends: the change since its last push, not the whole page.

A push is one JSON message ``{"type": "arena", "v", "full", "regions", "rows"}``. ``v`` counts
the socket's pushes from 1; ``full`` (the first push, and the answer to a page that asks for it)
carries every region and every row. Otherwise ``regions`` holds only the regions whose HTML
changed (each without its rows) and ``rows`` each list's change: ``set`` the rows, by key, that
are new or changed, and ``order`` the keys in their new order when the order changed (a row no
longer in it is gone). A page that sees a ``v`` it did not expect (it missed a push, or its DOM was
swapped by an answer of its own) asks for a full push (``{"resync": true}``, ``consumers``).

A match's end changes two standings rows and one pairing; the rest of a 100-row table is not sent
again (docs/performance.md, "Arenas": from 27 kB to about 2 kB a push).
"""

from __future__ import annotations

from typing import Any

Snapshot = dict[str, Any]  # regions.snapshot


def changes(before: Snapshot | None, now: Snapshot, version: int) -> dict[str, Any] | None:
    """The message that brings a page showing ``before`` (None: nothing yet) to ``now``, as
    push ``version``; None when nothing changed."""
    full = before is None
    then: Snapshot = before or {"regions": {}, "rows": {}}
    regions = {
        element: html
        for element, html in now["regions"].items()
        if full or then["regions"].get(element) != html
    }
    rows: dict[str, Any] = {}
    for name, items in now["rows"].items():
        old = then["rows"].get(name, [])
        known = dict(map(tuple, old))
        change: dict[str, Any] = {}
        changed = {key: html for key, html in items if known.get(key) != html}
        if changed:
            change["set"] = changed
        order = [key for key, _html in items]
        if full or order != [key for key, _html in old]:
            change["order"] = order
        if change:
            rows[name] = change
    if not (full or regions or rows):
        return None
    return {"type": "arena", "v": version, "full": full, "regions": regions, "rows": rows}
