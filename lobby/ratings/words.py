"""How long a player waits, in words: "14 hours", "5 minutes" (rounded up, so that a player
who comes back when told is let in)."""

from __future__ import annotations

import math

from django.utils.translation import ngettext


def wait_words(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    if minutes < 60:
        return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    hours = math.ceil(minutes / 60)
    return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
