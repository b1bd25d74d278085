"""The table's sentence about a hand's provably fair deal: who has cut the stock (older
matches) or sent a seed for the deal (``docs/fairness.md``).

Each case is a whole sentence of its own, never a list of names joined by commas: "you and
Alice", not "you, Alice"; and in German the words agree with who is named (du hast, ihr habt,
sie haben; von dir, deinem Seed), which no sentence with a blank for the names can do.
"""

from __future__ import annotations

from django.utils.translation import gettext as _


def fair_line(cut: list[int], names: dict[int, str], seat: int, *, you: bool, seeds: bool) -> str:
    """The sentence for the seats in ``cut`` (those who cut the stock, or with ``seeds`` sent a
    seed), the reader's first; ``you``: the reader is "you" (not a watcher or a shared screen).
    Empty when nobody has."""
    if not cut:
        return ""
    mine = you and cut[0] == seat
    other = names[cut[-1]]
    if seeds:
        return _seeds_line(len(cut), mine, names[cut[0]], other)
    if len(cut) == 1 and mine:
        return _(
            "The server committed to this hand's deck before the deal; you cut the stock. "
            "Check it in the replay once the hand is over."
        )
    if len(cut) == 1:
        return _(
            "The server committed to this hand's deck before the deal; %(names)s cut the "
            "stock. Check it in the replay once the hand is over."
        ) % {"names": other}
    if mine:
        return _(
            "The server committed to this hand's deck before the deal; you and %(name)s cut "
            "the stock. Check it in the replay once the hand is over."
        ) % {"name": other}
    return _(
        "The server committed to this hand's deck before the deal; %(first)s and %(second)s "
        "cut the stock. Check it in the replay once the hand is over."
    ) % {"first": names[cut[0]], "second": other}


def _seeds_line(count: int, mine: bool, first: str, other: str) -> str:
    if count == 1 and mine:
        return _(
            "The server committed to its secret for this hand before any seed was sent; the "
            "deal comes from it and your seed. Check it in the replay once the hand is over."
        )
    if count == 1:
        return _(
            "The server committed to its secret for this hand before any seed was sent; the "
            "deal comes from it and the seeds sent by %(names)s. Check it in the replay once "
            "the hand is over."
        ) % {"names": other}
    if mine:
        return _(
            "The server committed to its secret for this hand before any seed was sent; the "
            "deal comes from it and the seeds sent by you and %(name)s. Check it in the replay "
            "once the hand is over."
        ) % {"name": other}
    return _(
        "The server committed to its secret for this hand before any seed was sent; the deal "
        "comes from it and the seeds sent by %(first)s and %(second)s. Check it in the replay "
        "once the hand is over."
    ) % {"first": first, "second": other}
