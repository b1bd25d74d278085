"""What every part of the JSON API shares: rate limits, the error shape, the request bodies.

Apart from ``ginsite.api`` (the NinjaAPI itself), so that the routers in ``lobby.api.routes`` and
``games.api.matches`` (and its schemas, ``games.api.match_schemas``) can import it without
importing the API that mounts them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, Literal, get_args

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from ninja import Schema
from ninja.renderers import JSONRenderer
from ninja.responses import NinjaJSONEncoder
from pydantic import BeforeValidator, ValidationInfo, field_validator, model_validator

from ginsite.lib import limits, numbers
from ginsite.lib.refusals import Refused

# Every status an operation may answer with besides its success; documented on each, so a
# client (and schemathesis) knows the error shape of each.
ERRORS = frozenset({400, 401, 403, 404, 409, 422, 429})


# The rules a match may be played by, spelled out so the schema says so (tests/api check these
# against games.engine.PRESETS and games.services.TARGETS).
def _whole(value: Any) -> Any:
    """JSON has one number type: 100.0 is the integer 100 (as JSON Schema says); 100.5, "100"
    and true are not."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


WholeNumber = Annotated[int, BeforeValidator(_whole)]
Preset = Literal["standard", "classic", "simple"]
Target = Annotated[Literal[50, 100, 150, 250], BeforeValidator(_whole)]


def _days(value: Any) -> Any:
    """true equals 1 to Python, and would pass for a day: JSON's true is no number."""
    if isinstance(value, bool):
        raise ValueError("Days per move must be 1, 3 or 7 (or null, for a live match).")
    return _whole(value)


# A correspondence match's days per move (games.live.correspondence.DAYS_CHOICES); null: live.
DaysPerMove = Annotated[Literal[1, 3, 7], BeforeValidator(_days)]

CODES_BY_STATUS = {
    400: "malformed",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    422: "unprocessable",
    429: "rate_limited",
    500: "server_error",
    503: "unavailable",
}


class Error(Schema):
    """Every refusal: ``code`` is stable (match on it), ``message`` is for people."""

    code: str
    message: str
    errors: list[dict[str, Any]] | None = None


class ApiError(Exception):
    """A refusal raised by the API layer itself (not by a service)."""

    def __init__(self, status: int, code: str, message: str, **headers: str):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


@dataclass(frozen=True)
class Refusal:
    """A refusal as the API answers it, over HTTP or over the event socket: the status, the
    JSON body and the headers that go with it."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str]


def refusal(exc: ApiError | Refused) -> Refusal:
    """The answer to a refusal of the API layer or of a service. A well-formed request a service
    will not carry out ("you cannot challenge yourself", 400 there) is 422 here: the API keeps
    400 for requests of the wrong shape."""
    status = 422 if isinstance(exc, Refused) and exc.status == 400 else exc.status
    return Refusal(status, {"code": exc.code, "message": exc.message}, dict(exc.headers))


def malformed(errors: Iterable[dict[str, Any]]) -> Refusal:
    """400 for a request of the wrong shape (a missing field, a string for a number), with
    where: ``errors`` as pydantic lists them, each ``loc`` inside the body."""
    listed = [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type"))}
        for e in errors
    ]
    where = ", ".join(".".join(str(p) for p in e["loc"]) for e in listed[:5])
    message = f"The request is malformed ({where})."
    return Refusal(400, {"code": "malformed", "message": message, "errors": listed}, {})


def api_time(moment: datetime) -> str:
    """A time as the whole API writes it, answers, events and stream lines alike, so a client
    parses one form: ISO 8601 in UTC, always with milliseconds, and a ``Z``
    ("2026-12-06T04:30:23.535Z"; Django's encoder left the fraction out on a whole second)."""
    text = moment.astimezone(UTC).isoformat(timespec="milliseconds")
    return text.removesuffix("+00:00") + "Z"


class ApiJSONEncoder(NinjaJSONEncoder):
    """The API's JSON encoder: its times as ``api_time`` writes them."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime):
            return api_time(o)
        return super().default(o)


class ApiRenderer(JSONRenderer):
    encoder_class = ApiJSONEncoder


def error_response(
    status: int, code: str, message: str, errors: list[dict[str, Any]] | None = None
) -> JsonResponse:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors is not None:
        body["errors"] = errors
    return JsonResponse(body, status=status)


# --- Rate limits --------------------------------------------------------------------------------


def check_rate(user_id: int) -> None:
    """Count one request of a player in the current window of the shared cache: all their
    tokens and their session together, so more tokens buy no more requests. Past the limit,
    429 with the seconds until the window ends."""
    limit = settings.API_RATE_LIMIT
    window = settings.API_RATE_WINDOW
    count, retry = limits.hit(limits.player_ident(user_id), window)
    if count > limit:
        raise ApiError(
            429,
            "rate_limited",
            f"Too many requests: at most {limit} every {window} seconds. Retry in {retry} seconds.",
            **{"Retry-After": str(retry)},
        )


def check_auth_failures(address: str | None) -> None:
    """Refuse (429) any token from a client address that sent API_AUTH_FAILURE_LIMIT invalid
    ones in the current window: a guess costs a database lookup, and guessing is never
    limited otherwise (a wrong token has no player to count it against)."""
    limit = settings.API_AUTH_FAILURE_LIMIT
    failures, retry = limits.count(f"auth-failed:{address}", settings.API_RATE_WINDOW)
    if failures >= limit:
        raise ApiError(
            429,
            "rate_limited",
            f"Too many invalid tokens from your address. Retry in {retry} seconds.",
            **{"Retry-After": str(retry)},
        )


def note_auth_failure(address: str | None) -> None:
    limits.hit(f"auth-failed:{address}", settings.API_RATE_WINDOW)


def user_of(request: HttpRequest) -> Any:
    """The player making the request (authentication has already run)."""
    return request.auth  # type: ignore[attr-defined]


# Where ``lobby.events.idempotency`` leaves, on a request with an ``Idempotency-Key``, the hook that
# keeps the key's answer: a view whose change is one transaction (a move) calls it there with
# its answer, so that the answer commits with the change (``answer_keeper``).
KEEP_ANSWER = "keep_answer"


def answer_keeper(request: HttpRequest) -> Callable[[dict[str, Any]], None] | None:
    """The hook to hand this request's answer to inside its change's transaction, if any."""
    return getattr(request, KEEP_ANSWER, None)


def not_found_view(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any other path under /api/: a JSON 404, never an HTML page."""
    return error_response(404, "not_found", "There is no such API endpoint.")


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


class Body(Schema):
    """A request body: a JSON object with only the fields it declares. (Without the first
    check ninja would read the defaults out of a list or a number, and accept it.) No text in
    it may hold a NUL character, which PostgreSQL refuses (a 500 where a 400 is due)."""

    # Strict: no quiet conversions ("1" or true for a number, 0 for false).
    model_config = {"extra": "forbid", "strict": True}

    @model_validator(mode="before")
    @classmethod
    def _an_object(cls, data: Any) -> Any:
        # ninja hands the parsed JSON over wrapped in its DjangoGetter.
        obj = getattr(data, "_obj", data)
        if not isinstance(obj, dict):
            raise ValueError("The body must be a JSON object.")
        if _has_nul(obj):
            raise ValueError("Text may not contain NUL (\\u0000) characters.")
        return data


class Params(Schema):
    """A query's parameters. They arrive as text, so a number is read from it by the site's
    one parser (``ginsite.lib.numbers``: ASCII digits only, where pydantic would read " 1" and
    "1_0" as numbers); its bounds are the field's own, which the schema states."""

    @field_validator("*", mode="before")
    @classmethod
    def _numbers(cls, value: Any, info: ValidationInfo) -> Any:
        field = cls.model_fields.get(info.field_name or "")
        if field is not None and isinstance(value, str) and _is_number(field.annotation):
            return numbers.from_text(value)
        return value


def _is_number(annotation: Any) -> bool:
    return annotation is int or (int in get_args(annotation) and bool not in get_args(annotation))
