"""The context of one seat's table: everything its regions render, derived from its view.

``table_context`` takes what ``readers.view_for`` gives a seat (or a watcher, drawn from seat
0's side) and adds the words and flags the partials of ``games/table.html`` need; the status
line, the moves in words, the hand and the piles, and the end of a hand each have a module of
their own in this package; the words about the provably fair deal are at the end of this one.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from games.labels import PRESET_NAMES, level_name
from games.live import correspondence
from games.models import HandOrder, Match, Seat
from games.table import add_ons as extras

from . import orders
from .hand import add_hand
from .results import add_ending
from .words import add_talk


def _socket_url(path: str) -> str:
    """``path`` with the language active now (the page's) for its socket to render in."""
    return f"{path}?{urlencode({'lang': translation.get_language()})}"


def table_context(
    match: Match,
    seat: int,
    view: dict[str, Any],
    *,
    hint: dict[str, Any] | None = None,
    notice: str = "",
    notice_level: str = "error",
    spectator: bool = False,
) -> dict[str, Any]:
    """Everything the table's regions render, derived from ``view``: what ``readers.view_for``
    gives the seat, or with ``spectator`` a watcher (drawn from seat 0's side)."""
    if spectator:
        view = spectator_as_view(view)
    seats = {s.number: s for s in match.seats.all()}
    ctx = _who(match, seat, seats, spectator)
    ctx.update(_turn(match, view, seat, ctx["opponent_is_bea"], hint))
    ctx.update(
        match=match,
        view=view,
        seat=seat,
        urls=_urls(match, hints_allowed(match)),
        notice=notice,
        notice_level=notice_level,
        spectator=spectator,
        blocked=view.get("blocked", ""),
        live=view.get("live"),
        # Live play, and Bea's table: her actions are pushed as she makes them, in the
        # language of the page that opens the socket.
        ws_url=_socket_url(f"/ws/games/{match.public_id}/")
        if view.get("live") is not None or ctx["opponent_is_bea"]
        else "",
        # No hand in play: it is over, or not dealt yet (waiting for the players' seeds).
        hand_ended=view["phase"] in ("hand_over", "match_over", "shuffling"),
        players=_players(view, ctx["names"], seat),
        backs=range(view["opponent_card_count"]),
        rules_line=_rules_line(view["rules"], ctx["opponent"], ctx["level"]),
    )
    _add_live(ctx, view, seat, spectator)
    ctx["shuffle"] = shuffle(view, ctx["names"], seat, named_both=spectator or ctx["local"])
    sort, dragged = _saved_sort(seats.get(seat), view, ctx)
    # Then each part of the table from its own module, once and in order, each handed what
    # the parts before it worked out: what the table says, the cards, the end of a hand, and
    # what the kind of match adds.
    add_talk(ctx, view, seat, spectator)
    # The cards: their orders (pure, ``orders``: the one Bea offline runs too), then each
    # card named and ready to draw (``hand``).
    ordered = orders.on_the_table(view, sort, dragged)
    add_hand(ctx, view, ordered)
    add_ending(ctx, match, view, seat)
    extras.add_to_table(ctx, match, None if spectator or ctx["local"] else seat)
    return ctx


def _saved_sort(
    seat: Seat | None, view: dict[str, Any], ctx: dict[str, Any]
) -> tuple[str, list[str]]:
    """The player's own order of their hand (``games.table.arrange`` keeps it): their sort,
    and where they dragged the cards this hand (none: the sort alone)."""
    if ctx["spectator"] or not view["hand"] or ctx["hand_ended"] or seat is None or seat.pk is None:
        return orders.MELDS, []
    order = HandOrder.objects.filter(seat=seat).first()
    if order is None:
        return orders.MELDS, []
    current = order.cards and order.hand_number == view["hand_number"]
    return order.sort, list(order.cards) if current else []


def hints_allowed(match: Match) -> bool:
    """The hint (what Bea would do) is a help against Bea. Between two people it would be a
    third player at the table, so it is offered there only when both agreed to hints when
    the match was made (a challenge that proposed them, accepted)."""
    rules = extras.kinds.get(match.kind)
    if rules is not None and not rules.hints:
        return False  # a lesson's panel says what to do, and Bea's hint might not
    return match.hints or any(seat.kind == Seat.Kind.BEA for seat in match.seats.all())


def _who(match: Match, seat: int, seats: dict[int, Seat], spectator: bool) -> dict[str, Any]:
    """Who sits where, and what the page calls them."""
    opponent_seat = seats.get(1 - seat)
    opponent = opponent_seat.display_name if opponent_seat else _("Opponent")
    names = {seat: _("You"), 1 - seat: opponent}
    local = match.kind == Match.Kind.LOCAL
    if spectator or local:
        # On one shared screen "you" is whoever holds the device: name both players.
        names = {n: s.display_name for n, s in seats.items()}
    return {
        "opponent": opponent,
        "opponent_is_bea": opponent_seat is not None and opponent_seat.kind == Seat.Kind.BEA,
        "names": names,
        "seat_name": names[seat],
        "other_name": names[1 - seat],
        "local": local,
        "level": getattr(opponent_seat, "bea_level", ""),
    }


def _turn(
    match: Match, view: dict[str, Any], seat: int, bea: bool, hint: dict[str, Any] | None
) -> dict[str, Any]:
    """Whose move it is, and the move a hint (or a lesson) points at."""
    kinds = {a["type"] for a in view["legal_actions"]}
    # In a lesson the move it asks for is pointed at the way a hint is (games.lesson).
    hint_action = (hint or {}).get("action") or (view.get("lesson") or {}).get("expected") or {}
    return {
        "legal_kinds": kinds,
        # Sending a seed is the page's own business (table.js), not a turn at the cards.
        "my_turn": bool(kinds - {"next_hand", "seed"}),
        "bea_to_act": bea and match.is_active and view["to_act"] == 1 - seat,
        "hint": hint,
        "hint_action": hint_action,
        "hint_card": hint_action.get("card", ""),
    }


def _players(view: dict[str, Any], names: dict[int, str], seat: int) -> list[dict[str, Any]]:
    """The scores, the reader first."""
    return [
        {
            "seat": s,
            "name": names[s],
            "score": view["scores"][s],
            "hands_won": view["hands_won"][s],
            "dealer": view["dealer"] == s,
        }
        for s in (seat, 1 - seat)
    ]


def _add_live(ctx: dict[str, Any], view: dict[str, Any], seat: int, spectator: bool) -> None:
    """Who is awaited, the offer waiting for an answer, the move clock and who is here."""
    # A private table whose second seat nobody has taken yet.
    ctx["waiting"] = bool(ctx["live"] and any(ctx["live"].get("open") or ()))
    ctx["incoming"] = None if spectator else incoming_offer(view)
    ctx["after_match"] = not spectator and match_over(view)
    ctx["clock"] = _clock(ctx["live"], view, ctx["names"], seat)
    ctx["presence"] = _presence(ctx["live"], ctx["names"], seat, spectator)


def spectator_as_view(watched: dict[str, Any]) -> dict[str, Any]:
    """A watcher's view shaped like seat 0's player_view with no cards of its own, so that the
    same regions draw it: seat 0's hand shows as backs and its known cards, never its codes."""
    if "spectated" in watched:
        return watched
    view = dict(watched)
    view.update(
        seat=0,
        hand=[],
        arrangement={"melds": [], "deadwood": 0, "deadwood_cards": []},
        opponent_card_count=watched["card_counts"][1],
        known_opponent_cards=watched["known_cards"][1],
        legal_actions=[],
        cannot_discard=None,
        deadwood_after_discard=None,
        spectated={"card_count": watched["card_counts"][0], "known": watched["known_cards"][0]},
    )
    return view


def _presence(
    live: dict[str, Any] | None, names: dict[int, str], seat: int, spectator: bool
) -> list[dict[str, Any]]:
    """Who is at the table right now: the opponent for a player, both players for a watcher."""
    if not live:
        return []
    shown = (0, 1) if spectator else (1 - seat,)
    opened = live.get("open") or (False, False)
    return [
        {
            "name": names[n],
            "connected": live["connected"][n],
            "label": _("has not opened the link yet")
            if opened[n]
            else _("connected")
            if live["connected"][n]
            # In a correspondence match being away is normal: no pressure in the word.
            else _("not at the table")
            if live.get("days_per_move")
            else _("away"),
        }
        for n in shown
    ]


def _clock(
    live: dict[str, Any] | None, view: dict[str, Any], names: dict[int, str], seat: int
) -> dict[str, Any] | None:
    """The move clock of a lobby match: whose it is and how long is left (table.js counts it
    down; without JavaScript it reads as of the page's last update)."""
    if not live or not live.get("move_deadline") or view["to_act"] is None:
        return None
    deadline = datetime.fromisoformat(live["move_deadline"].replace("Z", "+00:00"))
    left = max(0, int((deadline - timezone.now()).total_seconds()))
    clock = {
        "deadline": live["move_deadline"],
        "left": f"{left // 60}:{left % 60:02d}",
        "mine": view["to_act"] == seat and not view.get("spectated"),
        "name": names[view["to_act"]],
        "days": live.get("days_per_move"),
    }
    if clock["days"]:
        # Correspondence: days and hours in words, and the moment itself (no countdown).
        # Up to the whole second: the API's times carry milliseconds, not the deadline's
        # microseconds, and a deadline a fraction early must not read an hour short.
        remaining = math.ceil((deadline - timezone.now()).total_seconds())
        clock["left"] = correspondence.time_left_words(timedelta(seconds=remaining))
        local = timezone.localtime(deadline)
        clock["due_text"] = f"{formats.date_format(local, 'DATETIME_FORMAT')} {local.tzname()}"
        clock["per_move"] = correspondence.days_label(clock["days"])
    return clock


def _rules_line(rules: dict[str, Any], opponent: str, level: str) -> str:
    line = _("%(preset)s rules, playing to %(target)s.") % {
        "preset": PRESET_NAMES.get(rules["name"], rules["name"]),
        "target": rules["target"],
    }
    if level:
        line += " " + _("%(name)s plays at level %(level)s.") % {
            "name": opponent,
            "level": level_name(level),
        }
    return line


def _urls(match: Match, hints: bool) -> dict[str, str]:
    pid = match.public_id
    if match.kind == Match.Kind.LOCAL:
        # Pass-and-play posts to its own views (the hint only for the revealed hand, and
        # only over htmx) and has no resignation: a new round replaces the match instead.
        return {
            "table": reverse("games:local", args=[pid]),
            "act": reverse("games:local_act", args=[pid]),
            "restart": reverse("games:local_restart", args=[pid]),
            "order": reverse("games:local_order", args=[pid]),
            "hint": reverse("games:local_hint", args=[pid]),
            "resign": "",
            "offer": "",
            "answer": "",
            "claim": "",
        }
    urls = {
        name: reverse(f"games:{name}", args=[pid])
        for name in ("table", "act", "hint", "resign", "offer", "answer", "claim", "order")
    }
    if not hints:
        # The hint is what Bea would do: a help against her, not a second player at a table
        # between two people unless both agreed to it (views.hint refuses it too).
        urls["hint"] = ""
    return urls


def incoming_offer(view: dict[str, Any]) -> dict[str, Any] | None:
    """The opponent's offer (a rematch or a restart) waiting for this seat's answer, if any."""
    offer = (view.get("live") or {}).get("offer")
    return offer if offer is not None and offer["from_seat"] != view["seat"] else None


def match_over(view: dict[str, Any]) -> bool:
    """The match has ended, however it ended: only what comes after it is left to do."""
    return view["match_status"] != Match.Status.ACTIVE or view["phase"] == "match_over"


# --- The provably fair deal -----------------------------------------------------------------------
# The table's words about a hand's provably fair deal: the commitment, and the sentence on who has
# cut the stock (older matches) or sent a seed for the deal (docs/fairness.md). Each case is a
# whole sentence of its own, never a list of names joined by commas: "you and Alice", not "you,
# Alice"; and in German the words agree with who is named (du hast, ihr habt, sie haben; von
# dir, deinem Seed), which no sentence with a blank for the names can do.


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
            "deal comes from it and the seed sent by %(name)s. Check it in the replay once "
            "the hand is over."
        ) % {"name": other}
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
