"""Every lobby action is one function of ``lobby.services`` that the lobby's pages and the JSON
API both call: through either, it leaves the same database, the same numbered events in each
player's log and the same group messages, refusals included.

Each test tells its story twice, once through the pages (htmx posts, as the lobby page makes
them) with players ann, ben and cy, once through the API with dee, eve and fay, and compares
what each left. Players are named by their part in the story (A, B, C), and challenges, seeks
and matches by the order they were made in, since ids and times differ between the two.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db.models import Q
from django.test import Client

from games.models import Match
from ginsite.lib import after_commit as pushes
from lobby import presence, services
from lobby.models import Block, Challenge, PlayerEvent, Presence, Seek
from tests.lobby.lobby_helpers import HTMX

from .conftest import Api, token_for

pytestmark = pytest.mark.django_db(transaction=True)

CASTS = {"pages": ("ann", "ben", "cy"), "api": ("dee", "eve", "fay")}


@dataclass
class Story:
    """One telling: its players by part, the way in, and the group messages sent meanwhile."""

    way: str
    players: dict[str, Any]
    sent: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    clients: dict[str, Any] = field(default_factory=dict)

    def post(self, part: str, page: str, api: str, form: dict[str, Any], body: Any) -> int:
        """``part`` posts the page's form to ``page`` or the API's ``body`` to ``api``: the
        answer's status."""
        if self.way == "pages":
            if part not in self.clients:
                self.clients[part] = Client()
                self.clients[part].force_login(self.players[part])
            return int(self.clients[part].post(page, form, **HTMX).status_code)
        if part not in self.clients:
            self.clients[part] = Api(token_for(self.players[part]))
        return int(self.clients[part].post(api, body).status_code)


Setup = Callable[[Story], dict[str, Any]]
Act = Callable[[Story, dict[str, Any]], int]


@pytest.fixture
def tell(django_user_model: Any) -> Iterator[Any]:
    def run(way: str, setup: Setup, act: Act) -> tuple[int, dict[str, Any]]:
        names = CASTS[way]
        players = {
            part: django_user_model.objects.create_user(username=name, password="x")
            for part, name in zip("ABC", names, strict=True)
        }
        story = Story(way, players)
        for user in players.values():
            presence.seen(user, f"test-page-{user.pk}")  # each has the lobby open
        made = setup(story)
        me = threading.get_ident()

        def heard(messages: list[tuple[str, dict[str, Any]]]) -> None:
            # The action's own (the test client runs it in this thread); not what a server
            # thread an earlier test left running sends meanwhile.
            if threading.get_ident() == me:
                story.sent.extend(messages)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pushes, "send_now", heard)
            status = act(story, made)
        return status, outcome(story)

    yield run


def alike(tell: Any, setup: Setup, act: Act) -> tuple[int, int]:
    """Tell the story both ways; assert both left the same; the two answers' statuses."""
    page_status, through_pages = tell("pages", setup, act)
    api_status, through_api = tell("api", setup, act)
    for part in ("database", "events", "messages"):
        assert through_pages[part] == through_api[part], part
    return page_status, api_status


# --- What a story left, named by part -----------------------------------------------------------


class Names:
    """Players by part, challenges, seeks and matches by the order they were made in."""

    def __init__(self, story: Story) -> None:
        ids = [user.pk for user in story.players.values()]
        self.part = {user.pk: part for part, user in story.players.items()}
        self.text = {user.get_username(): part for part, user in story.players.items()}
        self.challenges = {
            pk: f"challenge {n}"
            for n, pk in enumerate(
                Challenge.objects.filter(Q(challenger__in=ids) | Q(challenged__in=ids))
                .order_by("pk")
                .values_list("pk", flat=True),
                1,
            )
        }
        matches = Match.objects.filter(seats__user__in=ids).distinct().order_by("pk")
        self.matches = {m.pk: f"match {n}" for n, m in enumerate(matches, 1)}
        self.text.update({m.public_id: self.matches[m.pk] for m in matches})

    def of(self, value: str) -> str:
        for text, name in self.text.items():
            # Not \b: a public id may begin or end with "-", where \b finds no boundary.
            value = re.sub(rf"(?<!\w){re.escape(text)}(?!\w)", name, value)
        return value


def outcome(story: Story) -> dict[str, Any]:
    names = Names(story)
    return {
        "database": _rows(story, names),
        "events": _events(names),
        "messages": _sent(story, names),
    }


def _rows(story: Story, names: Names) -> dict[str, Any]:
    ids = list(names.part)
    challenges = [
        {
            "who": (names.part[c.challenger_id], names.part[c.challenged_id]),
            "rules": (c.preset, c.target, c.hints),
            "status": (c.status, c.reason, c.answered_at is not None),
            "counter_to": names.challenges.get(c.counter_to_id or 0),
            "match": names.matches.get(c.match_id or 0),
        }
        for c in Challenge.objects.filter(pk__in=names.challenges).order_by("pk")
    ]
    seeks = [
        (
            names.part[s.poster_id],
            s.preset,
            s.target,
            s.status,
            names.part.get(s.accepted_by_id or 0),
            names.matches.get(s.match_id or 0),
        )
        for s in Seek.objects.filter(poster__in=ids).order_by("pk")
    ]
    matches = [
        (
            m.kind,
            m.status,
            m.rules["target"],
            m.hints,
            m.version,
            [names.part.get(s.user_id or 0) for s in m.seats.order_by("number")],
        )
        for m in Match.objects.filter(pk__in=names.matches).order_by("pk")
    ]
    here = sorted(
        (names.part[row.user_id], row.channel_name.split(":")[0].split("-")[0])
        for row in Presence.objects.filter(user__in=ids)
    )
    blocks = sorted(
        (names.part[b.blocker_id], names.part[b.blocked_id])
        for b in Block.objects.filter(blocker__in=ids)
    )
    online = sorted(names.part[pk] for pk in presence.online_user_ids() if pk in names.part)
    return {
        "challenges": challenges,
        "seeks": seeks,
        "matches": matches,
        "presence": here,
        "online": online,
        "blocks": blocks,
    }


def _events(names: Names) -> dict[str, list[Any]]:
    """Each player's numbered events."""
    logs: dict[str, list[Any]] = {part: [] for part in names.part.values()}
    for event in PlayerEvent.objects.filter(user__in=list(names.part)).order_by("seq"):
        logs[names.part[event.user_id]].append(
            (event.seq, event.kind, _named(event.payload, names))
        )
    return logs


def _named(value: Any, names: Names, key: str = "") -> Any:
    """A payload with players, challenges and matches named, and times only said to be there."""
    if isinstance(value, dict):
        return {k: _named(v, names, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_named(v, names) for v in value]
    if value is None:
        return None
    if key.endswith("_at") or key == "at":
        return "<time>"
    if key in ("id", "counter_to") and isinstance(value, int):
        return names.challenges[value]
    if isinstance(value, str):
        return names.of(value)
    return value


def _sent(story: Story, names: Names) -> dict[str, list[Any]]:
    """What each group heard, in order (the order between groups is nobody's to see)."""
    heard: dict[str, list[Any]] = {}
    for group, message in story.sent:
        shown = {k: v for k, v in message.items() if k != "line"}
        shown["line"] = "line" in message  # a player's view rode along; its cards are its own
        for user_id, part in names.part.items():
            group = re.sub(rf"-{user_id}$", f"-{part}", group)
        heard.setdefault(names.of(group), []).append(_named(shown, names))
    return heard


# --- The actions --------------------------------------------------------------------------------


def _nothing(story: Story) -> dict[str, Any]:
    return {}


def _challenged(story: Story) -> dict[str, Any]:
    """A challenges B."""
    return {
        "challenge": services.challenge(story.players["A"], story.players["B"], "standard", 100).pk
    }


def _countered(story: Story) -> dict[str, Any]:
    """A challenges B, who declines it with a counter-proposal."""
    made = _challenged(story)
    item = Challenge.objects.get(pk=made["challenge"])
    services.decline_challenge(item, story.players["B"], "target", services.Proposal(None, 250))
    return made


def _cancelled(story: Story) -> dict[str, Any]:
    """A challenges B, then cancels it."""
    made = _challenged(story)
    services.cancel_challenge(Challenge.objects.get(pk=made["challenge"]), story.players["A"])
    return made


def _sought(story: Story) -> dict[str, Any]:
    """A posts a seek."""
    return {"seek": services.post_seek(story.players["A"], "classic", 50).pk}


@dataclass(frozen=True)
class Action:
    """Who posts what where, on a page and in the API: paths with ``{challenge}`` or
    ``{seek}`` from the story's setup, forms and bodies with ``{B}`` for B's username."""

    setup: Setup
    part: str
    page: str
    api: str
    form: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] | None = None

    def __call__(self, story: Story, made: dict[str, Any]) -> int:
        fill = {**made, "B": story.players["B"].get_username()}
        form = {k: v.format(**fill) for k, v in self.form.items()}
        body = self.body and {k: _filled(v, fill) for k, v in self.body.items()}
        return story.post(self.part, self.page.format(**fill), self.api.format(**fill), form, body)


def _filled(value: Any, fill: dict[str, Any]) -> Any:
    return value.format(**fill) if isinstance(value, str) else value


CHALLENGE = "/lobby/challenges/{challenge}/", "/challenges/{challenge}/"
SEEK = "/lobby/seeks/{seek}/", "/seeks/{seek}/"


def _on(paths: tuple[str, str], action: str) -> dict[str, str]:
    return {"page": paths[0] + action, "api": paths[1] + action}


ACTIONS = {
    "challenge": (
        Action(
            _nothing,
            "A",
            "/lobby/challenges/",
            "/challenges",
            {"to": "{B}", "preset": "classic", "target": "250", "hints": "on"},
            {"to": "{B}", "preset": "classic", "target": 250, "hints": True},
        ),
        (200, 201),
    ),
    "accept": (Action(_challenged, "B", **_on(CHALLENGE, "accept")), (204, 201)),
    "decline": (
        Action(
            _challenged,
            "B",
            **_on(CHALLENGE, "decline"),
            form={"reason": "not_interested"},
            body={"reason": "not_interested"},
        ),
        (200, 200),
    ),
    "counter": (
        Action(
            _challenged,
            "B",
            **_on(CHALLENGE, "decline"),
            form={"reason": "rules", "preset": "simple", "target": "50"},
            body={"reason": "rules", "counter": {"preset": "simple", "target": 50}},
        ),
        (200, 200),
    ),
    "accept-counter": (Action(_countered, "A", **_on(CHALLENGE, "accept-counter")), (204, 201)),
    "cancel": (Action(_challenged, "A", **_on(CHALLENGE, "cancel")), (200, 200)),
    "seek": (
        Action(
            _nothing,
            "A",
            "/lobby/seeks/",
            "/seeks",
            {"preset": "simple", "target": "150"},
            {"preset": "simple", "target": 150},
        ),
        (200, 201),
    ),
    "take a seek": (Action(_sought, "C", **_on(SEEK, "accept")), (204, 201)),
    "cancel a seek": (Action(_sought, "A", **_on(SEEK, "cancel")), (200, 200)),
    # Refused alike: the same nothing changed.
    "accept a cancelled challenge": (
        Action(_cancelled, "B", **_on(CHALLENGE, "accept")),
        (409, 409),
    ),
    "accept someone else's challenge": (
        Action(_challenged, "C", **_on(CHALLENGE, "accept")),
        (404, 404),
    ),
    # A well-formed request the lobby will not carry out: 400 on a page, 422 in the API.
    "take your own seek": (Action(_sought, "A", **_on(SEEK, "accept")), (400, 422)),
}


@pytest.mark.parametrize("name", ACTIONS)
def test_it_leaves_the_same_through_a_page_and_the_api(tell, name):
    action, statuses = ACTIONS[name]
    assert alike(tell, action.setup, action) == statuses
