"""The schemathesis run of ``test_schemathesis.py`` once more, against the server as deployed:
``python -m daphne ginsite.asgi:application`` in a process of its own, DEBUG off, on
PostgreSQL and Redis. So the answers the server gives before Django sees a request (daphne's
and Twisted's own refusals) are checked too: no 5xx, every error JSON with the API's error
shape and a content type, every answer as the schema says.

And with two players: alice builds her world through the API (matches, challenges, a seek,
offers; ``tests/api/two_players.py``), bob his, and bob's token fuzzes every operation with
path ids drawn from both worlds besides the generated ones. Of alice's things bob reads only
what anyone may (her lobby matches, as a watcher; her seek): any request naming one of her
private things (her challenges, her match against Bea) answers exactly as one naming an id
that does not exist; none of his requests naming her things succeeds in changing them; no
answer he gets shows a card hidden from him in her matches (her hand above all) or a secret
seed; and at the end alice's own client sees her things as they were.

Only in CI's PostgreSQL pass (``distributed``): the embedded pass runs the same schema in
process (``test_schemathesis.py``), a site runs on PostgreSQL and Redis, and another minute in
the embedded pass would buy little the in-process run does not.
``tests/api/test_server_refusals.py`` sends the requests schemathesis cannot (bad HTTP, huge
headers, hostile event-stream requests) to a real daphne in both passes.
"""

from __future__ import annotations

import asyncio
import os
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.db import connection
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig

from bench.harness.configs import base_env
from bench.harness.servers import Server
from lobby.accounts import tokens as api_tokens
from tests.api.test_schemathesis import POSITIVE_STATUSES
from tests.api.two_players import Watch, World, build

pytestmark = [pytest.mark.distributed, pytest.mark.django_db(transaction=True)]

# Per operation: about 2,200 requests in all (a few minutes on a 2-core machine running CI).
EXAMPLES = 50
APP = "ginsite.asgi:application"  # the deployed command: daphne <APP> (README, Configuration)
SCHEMA = "/api/v1/openapi.json"
PLAYERS = ("alice", "bob", "carol", "dave", "erin")
# Ids that name nothing (same types as the real ones): what bob gets for alice's private ids.
UNKNOWN = {"challenge_id": 2_000_000_000, "seek_id": 2_000_000_000, "match_id": "n0such1d"}
# As in test_schemathesis.py the limits are tested on their own; here they would turn most of
# the run into 429s. Bea plays without her pause, so her match is ready at once.
LIMITS = {
    name: "1000000"
    for name in (
        "API_RATE_LIMIT",
        "API_AUTH_FAILURE_LIMIT",
        "CHALLENGE_LIMIT_PER_SENDER",
        "CHALLENGE_LIMIT_PER_TARGET",
        "BEA_MATCH_LIMIT_PER_PLAYER",
        "BEA_MATCH_LIMIT_PER_ADDRESS",
        "SEARCH_LIMIT_PER_PLAYER",
        "SEARCH_LIMIT_PER_ADDRESS",
    )
}


def _needs_postgresql_and_redis() -> None:
    missing = [name for name in ("DATABASE_URL", "REDIS_URL") if not os.environ.get(name)]
    if not missing:
        return
    message = f"the run against daphne needs {' and '.join(missing)}"
    if os.environ.get("GIN_DISTRIBUTED", "").strip().lower() in {"1", "true", "yes", "on"}:
        pytest.fail(f"GIN_DISTRIBUTED is set but {message}")
    pytest.skip(message)


def _test_database_url() -> str:
    """The test database (pytest-django's test_<name>) at DATABASE_URL's server."""
    parts = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
    return urllib.parse.urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


@pytest.fixture
def server(transactional_db: None, tmp_path: Path) -> Iterator[Server]:
    _needs_postgresql_and_redis()
    env = {
        **base_env(),
        **LIMITS,
        "DATABASE_URL": _test_database_url(),
        "REDIS_URL": os.environ["REDIS_URL"],
        "BEA_PAUSE_MS": "0",
        "LOG_REQUESTS": "0",
        "LOG_LEVEL": "ERROR",  # not a line for each of the thousands of 4xx
    }
    started = Server.start("fuzz", APP, env, tmp_path)
    try:
        asyncio.run(started.wait_ready(SCHEMA))
        yield started
    finally:
        started.stop()
        log = started.log.read_text(errors="replace")
        print(f"daphne's log ({started.log}):\n{log[-5000:]}")  # shown when the test fails


@pytest.fixture
def world(server: Server, django_user_model: Any) -> World:
    tokens = {}
    for name in PLAYERS:
        user = django_user_model.objects.create_user(name, password="x")
        tokens[name] = api_tokens.create(user, "fuzz")[1]
    made = build(f"http://127.0.0.1:{server.port}", tokens)
    made.bob_token = tokens["bob"]
    return made


@pytest.fixture
def watch(world: World, capsys: pytest.CaptureFixture[str]) -> Iterator[Watch]:
    before = world.alice_sees()
    watching = Watch(world)
    yield watching
    with capsys.disabled():
        print(f"\n{watching.summary()}")
    assert world.alice_sees() == before, "bob's requests changed alice's things"
    # The run reached what it is for (a test that cannot fail is no test).
    for what in ("twins compared", "writes on alice's things", "answers about alice's matches"):
        assert watching.cross[what] >= 20, watching.summary()


# Valid requests only: this run is about what bob's token may do to alice's ids, and the hook
# below puts real ids where schemathesis drew others, which would make an invalid path valid
# (tests/api/test_schemathesis.py sends the invalid requests, in process).
CONFIG = SchemathesisConfig.from_dict(
    {
        "generation": {"mode": "positive"},
        "checks": {"positive_data_acceptance": {"expected-statuses": POSITIVE_STATUSES}},
    }
)


@pytest.fixture
def daphne_schema(server: Server, world: World) -> Any:
    base = f"http://127.0.0.1:{server.port}"
    schema = schemathesis.openapi.from_url(base + SCHEMA, config=CONFIG)

    @schema.hook
    def flatmap_path_parameters(context: Any, parameters: dict[str, Any]) -> Any:
        # Each id as generated, or one of the real ones of either player. Only an id of the
        # right type is replaced: a wrong type is the negative case schemathesis meant to send.
        drawn = {
            name: st.one_of(st.just(value), st.sampled_from(world.ids[name]))
            if name in world.ids and type(value) is type(world.ids[name][0])
            else st.just(value)
            for name, value in (parameters or {}).items()
        }
        return st.fixed_dictionaries(drawn)

    return schema


# The event stream never ends; test_server_refusals.py sends it hostile requests instead.
fuzz = schemathesis.pytest.from_fixture("daphne_schema").exclude(path="/api/v1/events/stream")


@pytest.fixture(autouse=True)
def _node_id_for_schemathesis(request: pytest.FixtureRequest) -> None:
    # schemathesis' lazy schema (4.32) reads and writes the test item's ``_nodeid``, which
    # pytest 9.2 no longer has (``nodeid`` is computed): give it one to use.
    request.node._nodeid = request.node.nodeid


# A hung request must stop the run: the thread method ends the process (hypothesis would catch
# the signal method's exception and send the request again). Not too soon: beside an arena it
# took 236 s, and two CI runs at once passed 600 s (the end of the process was their xdist
# worker's: "node down").
@pytest.mark.timeout(1200, method="thread")
@fuzz.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_deployed_server_keeps_to_its_schema_for_two_players(  # type: ignore[no-untyped-def]
    case, world: World, watch: Watch
) -> None:
    headers = {"Authorization": f"Bearer {world.bob_token}"}
    response = case.call_and_validate(session=watch.session, headers=headers, timeout=30)
    named = {
        name: value
        for name, value in case.path_parameters.items()
        if isinstance(value, str | int) and value in world.alice_ids.get(name, ())
    }
    if not named:
        return
    # Muting a match's quick messages is the reader's own setting (a watcher may mute too),
    # not a change to alice's match: it may succeed, and alice_sees() still checks her match.
    own_setting = case.formatted_path.endswith("/messages/mute")
    if case.method.upper() != "GET" and not own_setting:
        watch.cross["writes on alice's things"] += 1
        assert response.status_code >= 400, f"bob {case.method} {case.formatted_path}: 2xx"
    private = [name for name, value in named.items() if value in world.alice_private.get(name, ())]
    if private:
        # The same request about ids that do not exist: bob learns nothing of alice's.
        twin = case.derive(keep_auth=True)
        for name in private:
            twin.path_parameters[name] = UNKNOWN[name]
        other = twin.call(session=watch.session, headers=headers, timeout=30)
        watch.cross["twins compared"] += 1
        said = _said(response, [named[name] for name in private])
        unknown = _said(other, [UNKNOWN[name] for name in private])
        assert said == unknown, (
            f"bob {case.method} {case.formatted_path} answered {said}, "
            f"but about an unknown id {unknown}"
        )


def _said(response: Any, ids: list[Any]) -> tuple[int, str]:
    """The status and the body, with the ids the request named blanked out."""
    text = response.text
    for value in ids:
        text = re.sub(rf"\b{re.escape(str(value))}\b", "<id>", text)
    return response.status_code, text
