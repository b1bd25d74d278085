"""The guard on reviews' CPU: judging a hand plays out thousands of sampled hands.

The abuse case (docs/review.md): someone asks for the reviews of many finished matches (their
own, or every lobby match they may watch) to keep the server's cores busy. Only a hand never
judged costs anything (a judged hand is stored, and reading it again is free), and each one is
paid for three ways:

- per reader (an account, else the client's address): at most ``REVIEW_LIMIT_PER_READER`` hands
  judged for them in each window of ``REVIEW_LIMIT_WINDOW`` seconds;
- per request: at most ``REVIEW_HANDS_PER_REQUEST`` hands judged in one answer (a match's review
  that needs more says it is not complete, and the next request goes on);
- site-wide: at most ``REVIEW_AT_ONCE`` hands being judged at the same moment, in all the
  server's processes together (the shared cache counts them), so reviews never take every
  core from live play.

Past any of them the hand is not judged now: the replay still shows, without the review, and
says when to try again; the match's review answers 429 with ``Retry-After``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from ginsite.lib import limits

RUNNING_KEY = "review:running"
# A judging that died without counting itself out stops counting after this long.
RUNNING_TIMEOUT = 120


class Spent(Exception):  # noqa: N818 - a state the callers answer, not an error of theirs
    """No hand may be judged for this reader now; ``retry_after`` in seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def reader_of(request: HttpRequest, user: Any = None) -> str:
    """Whose budget a request spends: its account's (``user``, as the API knows it, else the
    session's), else its address's."""
    if user is None:
        user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"addr:{request.META.get('REMOTE_ADDR') or 'unknown'}"


@contextmanager
def judging(reader: str) -> Iterator[None]:
    """Hold one of the site's places for judging one hand for ``reader``, or raise ``Spent``."""
    retry = limits.over(
        f"review-by:{reader}", settings.REVIEW_LIMIT_PER_READER, settings.REVIEW_LIMIT_WINDOW
    )
    if retry is not None:
        raise Spent(retry)
    cache.add(RUNNING_KEY, 0, timeout=RUNNING_TIMEOUT)
    try:
        running = int(cache.incr(RUNNING_KEY))
    except ValueError:  # expired between add and incr
        cache.set(RUNNING_KEY, 1, timeout=RUNNING_TIMEOUT)
        running = 1
    try:
        if running > settings.REVIEW_AT_ONCE:
            raise Spent(1)
        yield
    finally:
        with suppress(ValueError):
            cache.decr(RUNNING_KEY)
