"""A match played in the terminal: the board, the legal actions offered by number, and the
opponent's moves heard on the event stream, until the match is over."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ginclient.api import ApiError, Client, move_body, only_seed
from ginclient.board import describe, menu, render

Out = Callable[[str], None]


def play_match(client: Client, match_id: str, out: Out, ask: Callable[[str], str]) -> int:
    """Show the board, offer the legal actions by number, and wait on the event stream for
    the opponent's moves, until the match is over."""
    # The stream first (its hello line read), then the match: a move made in between is
    # then an event still to come, never one missed.
    events = client.stream()
    next(events)
    match = client.get(f"/matches/{match_id}")
    while True:
        out("")
        out(render(match))
        if match["status"] != "active":
            return 0
        view = match["view"]
        legal = view.get("legal_actions") or []
        if match["seat"] is not None and only_seed(legal):
            # The deal waits for our seed: a random one, made here (docs/fairness.md).
            match = _send(client, match_id, view, legal[0], out)
            continue
        if match["seat"] is not None and legal:
            for line in menu(view):
                out(line)
            choice = ask("Your move (number, r to resign, q to quit): ").strip().lower()
            if choice == "q":
                return 0
            if choice == "r":
                match = client.post(f"/matches/{match_id}/resign", {"version": view["version"]})
                continue
            if not choice.isdigit() or not 1 <= int(choice) <= len(legal):
                out(f"Pick a number from 1 to {len(legal)}.")
                continue
            match = _send(client, match_id, view, legal[int(choice) - 1], out)
            continue
        out("Waiting for the other player...")
        for item in events:
            data = item.get("data") or {}
            if item.get("type") == "match" and data.get("match") == match_id and data.get("view"):
                break
        match = client.get(f"/matches/{match_id}")


def _send(
    client: Client, match_id: str, view: dict[str, Any], action: dict[str, Any], out: Out
) -> dict[str, Any]:
    """Post one action; the match as it then stands (read again after a refusal)."""
    try:
        match = client.post(f"/matches/{match_id}/actions", move_body(view, action))
        out(f"You: {describe(action, view)}")
        return match  # type: ignore[no-any-return]
    except ApiError as refused:
        out(f"Refused: {refused.message}")
        return client.get(f"/matches/{match_id}")  # type: ignore[no-any-return]
