"""Five guards around every view.

``NulGuardMiddleware``: PostgreSQL refuses a NUL character in text, so any lookup by a name or an
id taken from the request (``/games/%00/``, ``/players/%00/``, a form field) failed with a 500.
No URL, query or form of this site has a use for one: such a request is refused before a view
sees it (404 for a path, 400 otherwise), and a cookie holding one is ignored. JSON bodies are
the API's own to check (``ginsite.lib.apikit.Body``).

``ApiErrorsMiddleware``: every answer under ``/api/`` is the API's JSON ``{code, message}``,
including those Django gives before or after the API's own handlers (a body over the size
limit, a method the path does not have, an unknown path, a server error).

``StreamingConnectionsMiddleware``: a streaming answer (the NDJSON event stream) holds no
database connection of its own. Django gives each request a thread of its own, and that
thread's connection is kept until the request ends, which for a stream may be hours: each open
stream held one PostgreSQL connection all along (its database calls are ``sync_to_async``
calls between waits), so a few streams per worker used up the pool (``DB_POOL_MAX``) and every
other request waited for it in vain. The stream's steps run instead where the websocket
consumers' database calls run (the event socket runs the same stream there): on the worker's
one shared thread for them, whose connection is one for all.

``BusyDatabaseMiddleware``: when every connection of the pool (``DB_POOL_MAX``) stays taken
for ``DB_POOL_TIMEOUT`` seconds, the request fails wherever it first needed the database (a
session, a token, a view). That is the server being busy, not broken: the answer is 503 with
``Retry-After`` (JSON under /api/), so clients and bots come back instead of giving up on a 500.

``PrivateAnswersMiddleware``: an answer that depends on who asks is stored by no cache, the
browser's included (Back after signing out on a shared device).
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
from collections.abc import AsyncIterator, Callable, Iterable

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.signals import got_request_exception
from django.db import close_old_connections
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.cache import patch_cache_control
from django.views import defaults
from psycopg_pool import PoolTimeout

from games import access
from ginsite.lib.apikit import CODES_BY_STATUS, error_response

API_PREFIX = "/api/"
NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")
# Headers of the original answer that say something to the client about how to go on.
KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Vary")

GetResponse = Callable[[HttpRequest], HttpResponse]


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def refuse(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    """A refusal in the shape the client expects: JSON under /api/, the site's error page
    elsewhere."""
    if is_api(request):
        return error_response(status, code, message)
    if status == 404:
        return defaults.page_not_found(request, Http404(message))
    return defaults.bad_request(request, SuspiciousOperation(message))


def _has_nul(pairs: Iterable[tuple[str, list[str]]]) -> bool:
    return any(NUL in key or any(NUL in v for v in values) for key, values in pairs)


class NulGuardMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if NUL in request.path:
            return refuse(request, 404, "not_found", "There is no such page.")
        if _has_nul(request.GET.lists()):
            return refuse(request, 400, "malformed", "The query may not contain NUL characters.")
        if any(NUL in key or NUL in value for key, value in request.COOKIES.items()):
            # The browser would send it again and again: ignore it rather than refuse the site.
            request.COOKIES = {
                key: value
                for key, value in request.COOKIES.items()
                if NUL not in key and NUL not in value
            }
        if (
            request.method == "POST"
            and request.content_type in FORM_TYPES
            and not is_api(request)
            and _has_nul(request.POST.lists())
        ):
            return refuse(request, 400, "malformed", "The form may not contain NUL characters.")
        return self.get_response(request)


# What a client reads when Django (not the API's handlers) answered with an error.
GENERIC_MESSAGES = {
    400: "The request is malformed.",
    401: "Sign in: send a personal API token as Authorization: Bearer <token>.",
    403: "This request is not allowed.",
    404: "There is no such API endpoint.",
    413: "The request body is too large.",
    429: "Too many requests.",
    500: "The server failed to answer this request. Try again later.",
    503: "The service is unavailable right now. Try again later.",
}


def _is_json(response: HttpResponse) -> bool:
    return str(response.get("Content-Type", "")).startswith("application/json")


def _as_json(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    status = response.status_code
    code = CODES_BY_STATUS.get(status, "server_error" if status >= 500 else "error")
    if status == 405:
        message = f"{request.method} is not allowed here (allowed: {response.get('Allow', '')})."
    else:
        message = GENERIC_MESSAGES.get(status, response.reason_phrase or "Error.")
    answer = error_response(status, code, message)
    for name in KEPT_HEADERS:
        if name in response:
            answer[name] = response[name]
    answer.cookies = response.cookies
    return answer


class ApiErrorsMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_api(request):
            return self.get_response(request)
        if request.method in BODY_METHODS:
            try:
                body = request.body  # read here, so that a body over the limit is a 413
            except RequestDataTooBig:
                limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
                return error_response(
                    413, "too_large", f"The request body is over the limit of {limit} bytes."
                )
            # Nothing here reads a form (and parsing one first would hide the body from the
            # API); an empty one, as `curl -d ''` sends, is no body at all.
            if body and request.content_type in FORM_TYPES:
                return error_response(
                    400, "malformed", "Send the body as JSON (Content-Type: application/json)."
                )
        response = self.get_response(request)
        if response.status_code < 400 or response.streaming or _is_json(response):
            return response
        return _as_json(request, response)


def _shared_thread_context() -> contextvars.Context:
    """This context, less its request's own thread: thread-sensitive ``sync_to_async`` calls
    made in it run on the process's shared thread, as outside any request."""
    context = contextvars.copy_context()
    context.run(SyncToAsync.thread_sensitive_context.set, None)  # type: ignore[arg-type]
    return context


async def _on_shared_thread(content: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    context = _shared_thread_context()
    iterator = aiter(content)

    async def step() -> bytes | None:
        try:
            return await anext(iterator)
        except StopAsyncIteration:
            return None  # no line is None: they are bytes

    async def close() -> None:
        await iterator.aclose()  # type: ignore[attr-defined]

    try:
        while (chunk := await asyncio.create_task(step(), context=context)) is not None:
            yield chunk
    finally:
        # The stream's own clean-up (leaving the lobby) runs where its steps ran.
        await asyncio.create_task(close(), context=context)


class StreamingConnectionsMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if isinstance(response, StreamingHttpResponse) and response.is_async:
            # The connection the request used so far (authentication, the view) goes back now,
            # not when the stream ends; the user is read first, for the request log.
            getattr(getattr(request, "user", None), "is_authenticated", None)
            close_old_connections()
            response.streaming_content = _on_shared_thread(response.streaming_content)
        return response


# --- No database connection free --------------------------------------------------------------

BUSY_RETRY_AFTER_SECONDS = 5
BUSY_MESSAGE = "The server is busy right now. Try again in a few seconds."
BUSY_PAGE = (
    "<!doctype html><html><head><meta charset=utf-8><title>Busy</title></head>"
    f"<body><h1>Busy</h1><p>{BUSY_MESSAGE}</p></body></html>"
)


def _waited_for_a_connection(exception: BaseException | None) -> bool:
    while exception is not None:
        if isinstance(exception, PoolTimeout):
            return True
        exception = exception.__cause__
    return False


def _note_busy_database(
    sender: object, request: HttpRequest | None = None, **kwargs: object
) -> None:
    """Django turns an exception into a 500 in the layer that raised it and tells this signal,
    inside its ``except``: mark the request, so that the middleware outside can say why."""
    if request is not None and _waited_for_a_connection(sys.exc_info()[1]):
        request.database_busy = True  # type: ignore[attr-defined]


got_request_exception.connect(_note_busy_database, dispatch_uid="ginsite.busy_database")


class BusyDatabaseMiddleware:
    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 500 or not getattr(request, "database_busy", False):
            return response
        if is_api(request):
            busy = error_response(503, "unavailable", BUSY_MESSAGE)
        else:
            busy = HttpResponse(BUSY_PAGE, status=503)
        busy["Retry-After"] = str(BUSY_RETRY_AFTER_SECONDS)
        return busy


# --- Answers for one reader --------------------------------------------------------------------


def _for_one_reader(request: HttpRequest, response: HttpResponse) -> bool:
    """Does ``response`` depend on who asked: a session, an API token or a key cookie came
    with the request, or goes out with the answer (a sign-in, a guest's first match)?"""
    session = settings.SESSION_COOKIE_NAME
    return bool(
        request.headers.get("Authorization")
        or session in request.COOKIES
        or session in response.cookies
        or access.holds_a_key(request.COOKIES)
        or access.holds_a_key(response.cookies)
    )


class PrivateAnswersMiddleware:
    """Every answer that depends on who asks is ``Cache-Control: no-store, private``: a table
    with a hand, the lobby, Settings, a profile seen signed in, an htmx region, an API answer.
    Without it a browser keeps such a page in its back/forward cache and its HTTP cache, so on
    a shared device Back after signing out showed the previous player's table and settings
    (issue 39, finding 7), and a shared proxy could keep one player's page for another.

    A middleware, because the rule is the same for every door and no view should have to
    remember it. What the same for everyone keeps its caching: static files (WhiteNoise answers
    them before this runs), and pages asked for without a session, token or key. Directives a
    view set are kept, these added (the event stream's no-cache, the service worker's)."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if _for_one_reader(request, response):
            patch_cache_control(response, no_store=True, private=True)
        return response
