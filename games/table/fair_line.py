"""The table's words about a hand's provably fair deal: the commitment, and the sentence on who
has cut the stock (older matches) or sent a seed for the deal (``docs/fairness.md``).

Each case is a whole sentence of its own, never a list of names joined by commas: "you and
Alice", not "you, Alice"; and in German the words agree with who is named (du hast, ihr habt,
sie haben; von dir, deinem Seed), which no sentence with a blank for the names can do.
"""

from __future__ import annotations

from typing import Any

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


def shuffle(
    view: dict[str, Any], names: dict[int, str], seat: int, *, named_both: bool
) -> dict[str, Any] | None:
    """This hand's provably fair deal as the table shows it: the commitment, and who has
    seeded the deal (or, in an older match, cut the stock). ``seed_wanted``: the page sends a
    seed of its own now (this hand waits for it), or in an older match with this seat's next
    move. ``named_both``: the page names both players (a watcher, pass-and-play), not "you"."""
    shuffle = view.get("shuffle")
    if not shuffle or view["phase"] in ("hand_over", "match_over"):
        return None
    seeded = shuffle["seeded"]
    dealt_from_seeds = "awaiting" in shuffle
    # Who cut (or seeded), the reader first; a sentence of its own for each case.
    order = (0, 1) if named_both else (seat, 1 - seat)
    cut = [s for s in order if seeded[s]]
    return {
        "commitment": shuffle["commitment"],
        "seeded_deal": dealt_from_seeds,
        "cut_line": fair_line(cut, names, seat, you=not named_both, seeds=dealt_from_seeds),
        "seed_wanted": {"type": "seed"} in view["legal_actions"]
        if dealt_from_seeds
        else bool(view["legal_actions"]) and not seeded[seat],
    }
