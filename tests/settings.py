"""Settings for the test suite: the site's own settings, as a server started with nothing set
gets them (DEBUG off), except for static files.

The hashed static files storage of a DEBUG-off site needs ``collectstatic`` to have run; the
tests find the files where they lie instead, as ``./scripts/run`` does.
"""

from __future__ import annotations

from ginsite.settings import *  # noqa: F403
from ginsite.settings import STORAGES

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
