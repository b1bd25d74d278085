"""schemathesis against the published OpenAPI schema, signed in with a token: for every
operation, generated requests (valid and invalid) never get a 5xx, and every answer matches
the schema (status, content type, body). The examples per operation are bounded so the whole
run stays within a minute or two."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from lobby import presence
from lobby import tokens as api_tokens

# A well-formed request may still be refused for what it asks (an illegal move, a challenge to
# yourself): 422. Everything else schemathesis expects of valid data stands.
config = SchemathesisConfig.from_dict(
    {
        "checks": {
            "positive_data_acceptance": {
                "expected-statuses": ["2xx", "401", "403", "404", "409", "422", "429"]
            }
        }
    }
)
schema = schemathesis.openapi.from_wsgi(
    "/api/v1/openapi.json", get_wsgi_application(), config=config
)
# The event stream never ends; tests/api/test_events.py reads it line by line instead.
schema = schema.exclude(path="/api/v1/events/stream")

MAX_EXAMPLES = 25


@pytest.fixture
def token(django_user_model, settings_override) -> str:  # type: ignore[no-untyped-def]
    alice = django_user_model.objects.create_user("alice", password="x")
    bob = django_user_model.objects.create_user("bob", password="x")
    presence.seen(bob, "schemathesis-bob")
    return api_tokens.create(alice, "schemathesis")[1]


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
def test_the_api_keeps_to_its_schema(case, token: str) -> None:  # type: ignore[no-untyped-def]
    case.call_and_validate(headers={"Authorization": f"Bearer {token}"})
