"""Settings for the test suite: the site's own settings, as a server started with nothing set
gets them (DEBUG off), except for static files.

The hashed static files storage of a DEBUG-off site needs ``collectstatic`` to have run; the
tests find the files where they lie instead, as ``./scripts/run`` does.
"""

from __future__ import annotations

import os
import urllib.parse


def _redis_of_this_worker() -> None:
    """Under pytest-xdist each worker has its own test database (pytest-django's _gw0, _gw1
    suffixes), so two workers make matches, users and players' events with the same ids. In
    one Redis they would share group names ("match-1"), cache keys and counts: each worker
    takes a Redis database of its own instead, the one after REDIS_URL's for gw0 and so on,
    and a channel-layer prefix of its own.
    Set in the environment, so that the servers the distributed tests start use it too."""
    url, worker = os.environ.get("REDIS_URL"), os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return
    parts = urllib.parse.urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    number = base + 1 + int(worker.removeprefix("gw"))
    os.environ["REDIS_URL"] = urllib.parse.urlunsplit(parts._replace(path=f"/{number}"))
    # Pub/sub channels ignore the database: each worker's pushes get a prefix of their own too
    # (two workers' "bob" share an id, and one's warning or notice reached the other's page),
    # and so does each run on one Redis (two CI runs at once, on REDIS_URL /0 and /8: each
    # one's gw0 heard the other's lobby pushes and its players' wake-ups).
    os.environ["CHANNEL_PREFIX"] = f"asgi-{base}-{worker}"


_redis_of_this_worker()

from ginsite.settings import *  # noqa: E402, F403
from ginsite.settings import ACCOUNT_RATE_LIMITS, STORAGES  # noqa: E402

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# The suite's own process serves many tests' databases in turn; a sweeper thread reading them
# would race their setup and teardown. Tests call games.outbox themselves, and the servers the
# distributed tests start sweep as a site does.
OUTBOX_SWEEP = False

# Every test client is 127.0.0.1 and the limits' clock stands still (tests/conftest.py), so
# the whole suite would share one window of new matches against Bea (and of lessons, and of
# player searches). The tests of the limits set the shipped values
# (tests/games/test_bea_match_limits.py, test_lesson_limits.py, tests/lobby/test_search_limits.py).
BEA_MATCH_LIMIT_PER_PLAYER = 100_000
BEA_MATCH_LIMIT_PER_ADDRESS = 100_000
LESSON_LIMIT_PER_BROWSER = 100_000
LESSON_LIMIT_PER_ADDRESS = 100_000
SEARCH_LIMIT_PER_PLAYER = 100_000
SEARCH_LIMIT_PER_ADDRESS = 100_000
# Bea's reviews likewise, and the hands judged at once, which in PostgreSQL/Redis mode every
# test process counts together (tests/review/test_budget.py sets the shipped values).
REVIEW_LIMIT_PER_READER = 100_000
REVIEW_AT_ONCE = 100_000

# The same for new accounts per address (allauth counts in the cache, which most test
# directories do not clear); tests/accounts/test_signup_limit.py sets the shipped value.
ACCOUNT_RATE_LIMITS = {**ACCOUNT_RATE_LIMITS, "new_account": "100000/1h/ip"}

# Mail stays in memory (django.core.mail.outbox), as EMAIL_URL=locmem:// gives it; the tests
# of the production path point the SMTP backend at a local server (tests/mailserver.py).
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"

# The suite's commits on PostgreSQL need not wait for the disk (synchronous_commit=off): no
# test outlives a crash of PostgreSQL itself, and the flush of each commit is a good part of
# a short test's time there. The servers the distributed tests start read ginsite.settings and
# commit as a site does.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"  # noqa: F405

# PBKDF2 at full strength takes a third of a second a hash on this machine: every test user
# made with a password, and every sign-in, would pay it (the browser tests' sign-ins most). The
# same algorithm with few rounds instead: a hash stores its rounds, so the servers that the
# distributed and deployment tests start (the site's own settings) check these passwords too.
PASSWORD_HASHERS = ["tests.hashers.FewRoundsPBKDF2"]
