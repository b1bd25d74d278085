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
