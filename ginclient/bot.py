"""Run any ``choose(view) -> action`` callable as a player: in the lobby or against Bea.

The bot listens to its event stream (which also keeps it in the lobby), accepts challenges
(or posts a seek), and whenever a match event shows legal actions for its seat it asks
``choose`` and posts the answer with the view's version. A stale version (the opponent or a
second client moved first) is not an error: it reads the match again and goes on.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ginclient.api import ApiError, Client, move_body, only_seed
from ginclient.board import describe

Choose = Callable[[dict[str, Any]], dict[str, Any]]
# A bot that keeps answering illegal moves is broken; after this many it plays the first
# legal action instead, so the match can still finish.
MAX_REFUSALS = 3


def load_choose(spec: str) -> Choose:
    """``path/to/file.py:choose`` or ``package.module:choose``."""
    where, sep, name = spec.rpartition(":")
    if not sep or not where or not name:
        raise ValueError(f"--bot wants FILE.py:FUNCTION or MODULE:FUNCTION, not {spec!r}")
    if where.endswith(".py") or Path(where).exists():
        path = Path(where).resolve()
        if not path.is_file():
            raise ValueError(f"no such file: {where}")
        module_spec = importlib.util.spec_from_file_location(f"ginclient_bot_{path.stem}", path)
        if module_spec is None or module_spec.loader is None:
            raise ValueError(f"cannot load {where}")
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[module_spec.name] = module
        module_spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    choose = getattr(module, name, None)
    if not callable(choose):
        raise ValueError(f"{where} has no callable {name!r}")
    return choose  # type: ignore[no-any-return]


class Bot:
    def __init__(
        self,
        client: Client,
        choose: Choose,
        *,
        say: Callable[[str], None] = print,
        seek: bool = False,
        preset: str = "standard",
        target: int = 100,
        games: int | None = None,
    ):
        self.client, self.choose, self.say = client, choose, say
        self.seek, self.preset, self.target, self.games = seek, preset, target, games
        self.finished: set[str] = set()
        self.results: list[dict[str, Any]] = []

    # --- Playing one match --------------------------------------------------------------------

    def play(self, match: dict[str, Any]) -> dict[str, Any]:
        """Make every move that is ours now; return the match as it then stands."""
        refusals = 0
        while match.get("status") == "active" and match.get("seat") is not None:
            view = match["view"]
            legal = view.get("legal_actions") or []
            if not legal:
                break
            # Our seed for the deal is ours to send, not the bot's choice (docs/fairness.md).
            plain = only_seed(legal) or refusals >= MAX_REFUSALS
            action = legal[0] if plain else self.choose(view)
            try:
                match = self.client.post(f"/matches/{match['id']}/actions", move_body(view, action))
            except ApiError as refused:
                if refused.status == 422:
                    refusals += 1
                    self.say(f"refused {action}: {refused.message}")
                elif refused.status != 409:
                    raise
                match = self.client.get(f"/matches/{match['id']}")
                continue
            self.say(f"{match['id']}: {describe(action, view)}")
        self._note_end(match)
        return match

    def _note_end(self, match: dict[str, Any]) -> None:
        if match.get("status") == "active" or match["id"] in self.finished:
            return
        self.finished.add(match["id"])
        self.results.append(match)
        view = match.get("view") or {}
        settlement = view.get("settlement") or {}
        outcome = (
            "won"
            if settlement.get("winner", match.get("winner_seat")) == match.get("seat")
            else "lost"
        )
        self.say(f"{match['id']}: match {match['status']}, {outcome}; scores {match['scores']}")

    def done(self) -> bool:
        return self.games is not None and len(self.finished) >= self.games

    # --- Against Bea ----------------------------------------------------------------------------

    def against_bea(self, level: str) -> None:
        """Play ``games`` matches against Bea. She replies on the server at her own pace; the
        event stream says when the match has moved on."""
        events = self.client.stream()
        next(events)  # the hello line: from here on no event of ours is missed
        while not self.done():
            match = self.client.post(
                "/matches/bea",
                {"level": level, "preset": self.preset, "target": self.target, "replace": True},
            )
            while match["status"] == "active":
                match = self.play(match)
                if match["status"] == "active" and not match["view"].get("legal_actions"):
                    match = self._after_change(events, match)

    def _after_change(
        self, events: Iterator[dict[str, Any]], match: dict[str, Any]
    ) -> dict[str, Any]:
        """The match once an event says it moved past the version we have, or ended."""
        for item in events:
            data = item.get("data") or {}
            if (
                item.get("type") == "match"
                and data.get("match") == match["id"]
                and data.get("view") is not None
                # A resignation or a claim ends a match without a move: same version.
                and (data.get("version", -1) > match["version"] or data.get("status") != "active")
            ):
                break
        return self.client.get(f"/matches/{match['id']}")

    # --- Quick pairing ---------------------------------------------------------------------------

    def pool(self, *, rated: bool = False, allow_bots: bool = False) -> None:
        """Join the pool, play whoever it pairs us with, again until ``games`` are over."""
        events = self.client.stream()
        next(events)  # the hello line: the "paired" event cannot come before we listen
        while not self.done():
            match_id = join_pool(self.client, events, self.say, self._pool_body(rated, allow_bots))
            match = self.client.get(f"/matches/{match_id}")
            while match["status"] == "active":
                match = self.play(match)
                if match["status"] == "active" and not match["view"].get("legal_actions"):
                    match = self._after_change(events, match)
            self._note_end(match)  # ended by the other side (a resignation) while we waited

    def _pool_body(self, rated: bool, allow_bots: bool) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "target": self.target,
            "rated": rated,
            "allow_bots": allow_bots,
        }

    # --- An arena --------------------------------------------------------------------------------

    def arena(self, arena_id: str) -> None:
        """Join the arena (or come back to it) and play every match it pairs us into, until
        it is over or ``games`` matches are (the arena pairs us again after each match by
        itself; a "paired" event naming it says into which match)."""
        events = self.client.stream()
        next(events)  # the hello line: a "paired" event cannot come before we listen
        joined = self.client.post(f"/arenas/{arena_id}/join")
        self.say(f"joined {joined['name']}: {joined['phase']}, {joined['players']} players")
        match_id = (joined.get("me") or {}).get("playing")
        while not self.done():
            if match_id is None:
                match_id = self._next_arena_match(events, arena_id)
                if match_id is None:
                    break  # the arena is over
            match = self.client.get(f"/matches/{match_id}")
            while match["status"] == "active":
                match = self.play(match)
                if match["status"] == "active" and not match["view"].get("legal_actions"):
                    match = self._after_change(events, match)
            self._note_end(match)
            match_id = None
        mine = (self.client.get(f"/arenas/{arena_id}").get("me")) or {}
        self.say(f"arena: place {mine.get('rank')}, {mine.get('points')} points")

    def _next_arena_match(self, events: Iterator[dict[str, Any]], arena_id: str) -> str | None:
        """The match of the next "paired" event of this arena, or None once it is over."""
        for item in events:
            data = item.get("data") or {}
            if item.get("type") == "paired" and data.get("arena") == arena_id:
                self.say(f"paired with {data['opponent']['display_name']}: match {data['match']}")
                return str(data["match"])
            if item.get("type") == "arena" and data.get("arena") == arena_id:
                if data.get("event") == "finished":
                    return None
            elif item.get("type") == "keepalive" and self._arena_done(arena_id):
                return None  # time is up while we waited: nobody pairs us any more
        return None

    def _arena_done(self, arena_id: str) -> bool:
        return self.client.get(f"/arenas/{arena_id}")["phase"] in ("ending", "over")

    # --- In the lobby ---------------------------------------------------------------------------

    def _post_seek(self) -> None:
        try:
            self.client.post("/seeks", {"preset": self.preset, "target": self.target})
            self.say(f"posted a seek: {self.preset} to {self.target}")
        except ApiError as refused:
            if refused.status != 409:  # already seeking, or in a match: both fine
                raise

    def lobby(self) -> None:
        """Serve the lobby until ``games`` matches are over (or for ever)."""
        me = self.client.get("/me")
        self.say(f"signed in as {me['display_name']} ({me['username']})")
        for summary in self.client.get("/matches", status="active"):
            if summary["kind"] == "lobby":
                self.play(self.client.get(f"/matches/{summary['id']}"))
        for item in self.client.stream():
            kind = item.get("type")
            if kind == "hello":
                # Now in the lobby: answer what is already waiting.
                challenges = self.client.get("/challenges")
                for challenge in challenges["incoming"]:
                    if challenge["status"] == "open":
                        self._accept(challenge)
                if self.seek:
                    self._post_seek()
            elif kind == "challenge":
                data = item["data"]
                if data["direction"] == "incoming" and data["status"] == "open":
                    self._accept(data)
            elif kind == "match":
                data = item["data"]
                if data.get("view") is None:
                    continue  # superseded by a later event of the same match
                match = self.client.get(f"/matches/{data['match']}")
                self.play(match)
                if self.done():
                    return
                if match["status"] != "active" and self.seek:
                    self._post_seek()

    def _accept(self, challenge: dict[str, Any]) -> None:
        name = challenge["challenger"]["display_name"]
        try:
            started = self.client.post(f"/challenges/{challenge['id']}/accept")
        except ApiError as refused:
            self.say(f"could not accept {name}'s challenge: {refused.message}")
            return
        self.say(f"accepted {name}'s challenge: match {started['match']}")


def join_pool(
    client: Client,
    events: Iterator[dict[str, Any]],
    say: Callable[[str], None],
    body: dict[str, Any],
) -> str:
    """Join the quick-pairing pool (or keep the place we have) and wait on ``events`` (read
    past their hello line) for the "paired" event; the match we were paired into."""
    try:
        joined = client.post("/pool", body)
    except ApiError as refused:
        joined = client.get("/pool")
        if refused.status != 409 or joined["status"] != "waiting":
            raise
    if joined["status"] == "paired":
        say(f"paired with {joined['opponent']['display_name']}: match {joined['match']}")
        return str(joined["match"])
    rated = "rated" if joined["rated"] else "casual"
    say(f"waiting for an opponent: {joined['preset']} to {joined['target']}, {rated}")
    for item in events:
        if item.get("type") == "paired":
            data = item["data"]
            say(f"paired with {data['opponent']['display_name']}: match {data['match']}")
            return str(data["match"])
    raise ApiError(0, "unreachable", "The event stream ended.")
