"""schemathesis against the published OpenAPI schema, signed in with a token: for every
operation, generated requests (valid and invalid) never get a 5xx, and every answer matches
the schema (status, content type, body). The schema is the contract (issue 39, finding 8): a
request it allows is never refused as malformed (400) nor for its shape (a 422 only for what
it asks of the state the site is in, listed below), and one it does not allow is always
refused. The examples per operation are bounded so the whole run stays within a few minutes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.core import NOT_SET
from schemathesis.core.jsonschema import make_validator
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import negative_data_rejection

from lobby import presence
from lobby.accounts import tokens as api_tokens
from tests.games.live_helpers import lobby_match

# A well-formed request may still be refused for what it asks of the site's state: 422, with
# one of these codes (``refused_only_for_the_state`` holds every 422 to them). Everything else
# schemathesis expects of valid data stands; invalid data is refused, never answered 2xx.
STATE_REFUSALS = {
    "illegal_move",  # the engine's reason: not your turn, a card you do not hold
    "since_ahead",  # a since past your last event: the log, not the schema, knows it
    "idempotency_key_reused",
}
# The services' own 422 ``invalid_request`` only where the state can refuse a schema-valid
# request (challenging or following yourself, a rematch before the end, taking your own seek,
# a push endpoint not of a configured push service); never a search, a message or a number.
INVALID_REQUEST_AT = (
    "/api/v1/challenges",
    "/api/v1/seeks",
    "/api/v1/pool",
    "/api/v1/matches/{match_id}/offers",
    "/api/v1/players/{username}/follow",
    "/api/v1/me/push-subscriptions",
)
# What a valid request may be answered: done, or refused for who asks or for the state.
POSITIVE_STATUSES = ["2xx", "401", "403", "404", "409", "422", "429"]
config = SchemathesisConfig.from_dict(
    {
        "generation": {"mode": "all"},
        "checks": {
            "positive_data_acceptance": {"expected-statuses": POSITIVE_STATUSES},
            # Replaced by ``invalid_data_refused`` below, which asks it.
            "negative_data_rejection": {
                "enabled": False,
                "expected-statuses": ["400", "401", "403", "404", "405", "413", "429"],
            },
        },
    }
)


def _body_valid_after_all(case) -> bool:  # type: ignore[no-untyped-def]
    """Whether a body schemathesis made invalid is valid against the whole body schema.

    It makes a body invalid within one branch of a ``oneOf`` (an action's ``type`` outside the
    enum of the branch for a discard) and may land on another branch's value
    (``{"type": "big_gin"}``): a valid request, rightly accepted."""
    meta = case.meta
    if meta is None or not meta.is_negative_at(ParameterLocation.BODY):
        return False
    if case.body is NOT_SET or isinstance(case.body, bytes | bytearray):
        return False  # no body, or raw bytes: not a JSON value the schema could allow
    others = (loc for loc, info in meta.components.items() if loc != ParameterLocation.BODY)
    if any(meta.is_negative_at(loc) for loc in others):
        return False
    body = case.operation.get_body_for_media_type(case.media_type or "application/json")
    if body is None:
        return False
    validator_cls = case.operation.schema.adapter.jsonschema_validator_cls
    return bool(make_validator(body.optimized_schema, validator_cls).is_valid(case.body))


@schemathesis.check
def invalid_data_refused(ctx, response, case) -> None:  # type: ignore[no-untyped-def]
    """schemathesis' own check that invalid data is refused, but for a body it only believed
    invalid (``_body_valid_after_all``)."""
    if not _body_valid_after_all(case):
        negative_data_rejection(ctx, response, case)


@schemathesis.check
def refused_only_for_the_state(ctx, response, case) -> None:  # type: ignore[no-untyped-def]
    """A schema-valid request answered 422 names a refusal of the state, never a shape the
    schema allowed (before: an unknown quick message id, a search of one letter)."""
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    if response.status_code != 422:
        return
    code = response.json().get("code")
    if code == "invalid_request" and case.operation.path.startswith(INVALID_REQUEST_AT):
        return
    assert code in STATE_REFUSALS, f"schema-valid request refused for its shape: {code}"


schema = schemathesis.openapi.from_wsgi(
    "/api/v1/openapi.json", get_wsgi_application(), config=config
)
# The event stream never ends; tests/api/test_events.py reads it line by line instead.
schema = schema.exclude(path="/api/v1/events/stream")

MAX_EXAMPLES = 25
# Signed in as an app (OAuth): the same checks, fewer examples (the door is the same).
APP_EXAMPLES = 8


@pytest.fixture
def token(django_user_model, settings_override) -> str:  # type: ignore[no-untyped-def]
    alice = django_user_model.objects.create_user("alice", password="x")
    bob = django_user_model.objects.create_user("bob", password="x")
    presence.seen(bob, "schemathesis-bob")
    return api_tokens.create(alice, "schemathesis")[1]


@pytest.fixture
def match_id(token: str, django_user_model) -> str:  # type: ignore[no-untyped-def]
    """A lobby match of alice's with bob: the operations on a match reach past "no such
    match" to their bodies (a quick message, a mute, a move, an offer)."""
    alice, bob = (django_user_model.objects.get(username=n) for n in ("alice", "bob"))
    return lobby_match(alice, bob).public_id


@pytest.fixture(autouse=True)
def _keep_the_test_connection() -> Iterator[None]:
    # schemathesis calls the WSGI application itself, which closes the database connection at
    # the end of each request; on PostgreSQL that would end the test's transaction. Django's
    # test client does the same as this for the same reason.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def settings_override(settings):  # type: ignore[no-untyped-def]
    # Thousands of requests in a minute: the rate limit is tested on its own.
    settings.API_RATE_LIMIT = 100_000
    return settings


@pytest.mark.django_db
@pytest.mark.timeout(300)
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_api_keeps_to_its_schema(case, token: str, match_id: str) -> None:  # type: ignore[no-untyped-def]
    if "match_id" in (case.path_parameters or {}):
        case.path_parameters["match_id"] = match_id
    case.call_and_validate(headers={"Authorization": f"Bearer {token}"})


@pytest.fixture
def app_token(token: str, django_user_model) -> str:  # type: ignore[no-untyped-def]
    """alice's access token of an app she allowed every scope (``lobby.oauth``)."""
    from tests.oauth.conftest import issue, register

    alice = django_user_model.objects.get(username="alice")
    return issue(alice, register(), "read play lobby")[1]  # type: ignore[no-any-return]


@pytest.mark.django_db
@pytest.mark.timeout(300)
@schema.parametrize()
@settings(
    max_examples=APP_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_api_keeps_to_its_schema_for_an_app(case, app_token: str, match_id: str) -> None:  # type: ignore[no-untyped-def]
    """The same, signed in with an app's access token (OAuth) instead of a personal token."""
    if "match_id" in (case.path_parameters or {}):
        case.path_parameters["match_id"] = match_id
    case.call_and_validate(headers={"Authorization": f"Bearer {app_token}"})
