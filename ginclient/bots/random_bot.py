"""The simplest bot: a random legal action, preferring to end the hand when it may.

python -m ginclient --server URL --token T --bot ginclient/bots/random_bot.py:choose --seek
"""

from __future__ import annotations

import random
from typing import Any

_rng = random.Random()


def choose(view: dict[str, Any]) -> dict[str, Any]:
    legal = view["legal_actions"]
    enders = [a for a in legal if a["type"] in ("big_gin", "gin", "knock")]
    if enders:
        return enders[0]
    after = view.get("deadwood_after_discard") or {}
    discards = [a for a in legal if a["type"] == "discard"]
    if discards and after:
        return min(discards, key=lambda a: after.get(a["card"], 99))
    return _rng.choice(legal)
