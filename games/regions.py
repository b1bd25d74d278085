"""The table's regions: what each one shows, which ones a move changed, and their HTML.

A region is a template partial of ``games/table.html`` with a stable id (see ``REGIONS``). The
full page renders them all; an htmx response or a websocket push sends only the ones whose data
changed, as out-of-band swaps. Everything here reads one seat's ``player_view`` and nothing else.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import extras, readers
from games.engine import display
from games.fair_lines import fair_line
from games.lesson import panel as lesson_panel
from games.models import HandOrder, Match, Seat
from games.states import SEED_WAIT_SECONDS
from ginsite.language import socket_url

if TYPE_CHECKING:
    from django.http import HttpRequest

REGIONS: tuple[str, ...] = (
    "version",
    "notice",
    "lesson",
    "status",
    "live",
    "answer",
    "scores",
    "opponent",
    "pile",
    "hand",
    "actions",
    "hint",
    "result",
    "after",
    "history",
)

SUIT_NAMES = {
    "C": gettext_lazy("clubs"),
    "D": gettext_lazy("diamonds"),
    "H": gettext_lazy("hearts"),
    "S": gettext_lazy("spades"),
}
RANK_NAMES = {
    "A": gettext_lazy("ace"),
    "T": "10",
    "J": gettext_lazy("jack"),
    "Q": gettext_lazy("queen"),
    "K": gettext_lazy("king"),
}
KIND_NAMES = {
    "knock": gettext_lazy("knock"),
    "gin": gettext_lazy("gin"),
    "big_gin": gettext_lazy("Big Gin"),
    "undercut": gettext_lazy("undercut"),
    "draw": gettext_lazy("draw"),
}
SUIT_ORDER = "CDHS"
RANK_ORDER = "A23456789TJQK"


# --- Cards ------------------------------------------------------------------------------------


def card_name(code: str) -> str:
    """``10 of diamonds``, for screen readers and tooltips."""
    rank = RANK_NAMES.get(code[0], code[0])
    return _("%(rank)s of %(suit)s") % {"rank": rank, "suit": SUIT_NAMES[code[1]]}


def card(code: str, **extra: Any) -> dict[str, Any]:
    """What a template needs to draw one card."""
    label = display(code)
    return {
        "code": code,
        "rank": label[:-1],
        "suit": label[-1],
        "label": label,
        "red": code[1] in "DH",
        "name": card_name(code),
        **extra,
    }


def _by_suit(code: str) -> tuple[int, int]:
    return (SUIT_ORDER.index(code[1]), RANK_ORDER.index(code[0]))


def _by_rank(code: str) -> tuple[int, int]:
    return (RANK_ORDER.index(code[0]), SUIT_ORDER.index(code[1]))


def _meld_order(meld: list[str]) -> list[str]:
    return sorted(meld, key=_by_rank if len({c[1] for c in meld}) > 1 else _by_suit)


# --- The context of one seat's table ----------------------------------------------------------


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
    opponent_seat = seats.get(1 - seat)
    opponent = opponent_seat.display_name if opponent_seat else _("Opponent")
    opponent_is_bea = opponent_seat is not None and opponent_seat.kind == Seat.Kind.BEA
    names = {seat: _("You"), 1 - seat: opponent}
    local = match.kind == Match.Kind.LOCAL
    if spectator or local:
        # On one shared screen "you" is whoever holds the device: name both players.
        names = {n: s.display_name for n, s in seats.items()}
    legal = view["legal_actions"]
    kinds = {a["type"] for a in legal}
    # In a lesson the move it asks for is pointed at the way a hint is (games.lesson).
    hint_action = (hint or {}).get("action") or (view.get("lesson") or {}).get("expected") or {}
    ctx: dict[str, Any] = {
        "match": match,
        "view": view,
        "seat": seat,
        "opponent": opponent,
        "opponent_is_bea": opponent_is_bea,
        "names": names,
        "urls": _urls(match, readers.hints_allowed(match)),
        "legal_kinds": kinds,
        # Sending a seed is the page's own business (table.js), not a turn at the cards.
        "my_turn": bool(kinds - {"next_hand", "seed"}),
        "bea_to_act": opponent_is_bea and match.is_active and view["to_act"] == 1 - seat,
        "hint": hint,
        "hint_action": hint_action,
        "hint_card": hint_action.get("card", ""),
        "notice": notice,
        "notice_level": notice_level,
        "level": getattr(opponent_seat, "bea_level", ""),
        "spectator": spectator,
        "local": local,
        "blocked": view.get("blocked", ""),
        "live": view.get("live"),
        # Live play, and Bea's table: her actions are pushed as she makes them, in the
        # language of the page that opens the socket.
        "ws_url": socket_url(f"/ws/games/{match.public_id}/")
        if view.get("live") is not None or opponent_is_bea
        else "",
    }
    if spectator:
        ctx["watched"] = {
            "name": names[seat],
            "backs": range(view["spectated"]["card_count"]),
            "count": view["spectated"]["card_count"],
            "known": [card(c) for c in view["spectated"]["known"]],
        }
    # No hand in play: it is over, or not dealt yet (waiting for the players' seeds).
    ctx["hand_ended"] = view["phase"] in ("hand_over", "match_over", "shuffling")
    ctx["players"] = [
        {
            "seat": s,
            "name": names[s],
            "score": view["scores"][s],
            "hands_won": view["hands_won"][s],
            "dealer": view["dealer"] == s,
        }
        for s in (seat, 1 - seat)
    ]
    ctx["backs"] = range(view["opponent_card_count"])
    ctx["rules_line"] = _rules_line(view["rules"], opponent, ctx["level"])
    # A private table whose second seat nobody has taken yet.
    ctx["waiting"] = bool(ctx["live"] and any(ctx["live"].get("open") or ()))
    ctx["incoming"] = None if spectator else incoming_offer(view)
    ctx["after_match"] = not spectator and match_over(view)
    ctx["status"] = _status(view, ctx)
    ctx["last_moves"] = (
        _last_move_line(view, names) if spectator else opponent_moves(view, opponent)
    )
    ctx["presence"] = _presence(ctx["live"], names, seat, spectator)
    ctx["clock"] = _clock(ctx["live"], view, names, seat)
    ctx["seat_name"] = names[seat]
    ctx["other_name"] = names[1 - seat]
    order = None
    if not spectator and view["hand"] and not ctx["hand_ended"]:
        order = _saved_order(seats.get(seat))
    ctx["hand_order"] = _order_info(order)
    ctx["hand_cards"] = hand_cards(view, hint_action, order)
    ctx["pile"] = _pile(view, hint_action)
    if ctx["blocked"]:
        # Both players must be connected: the piles show no buttons until they are.
        ctx["pile"].update(can_draw_stock=False, can_draw_discard=False, can_take_upcard=False)
    ctx["discard_info"] = _discard_info(view)
    ctx["result"] = None
    if view["last_hand"]:
        ctx["result"] = result_context(view, names, seat, spectator or local)
        ctx["result"]["replay_url"] = _replay_url(match, view["last_hand"]["hand_number"])
    ctx["show_result"] = bool(
        (ctx["result"] and ctx["hand_ended"])
        or view["settlement"]
        or view["phase"] == "match_over"
        or not match.is_active
    )
    ctx["settlement"] = _settlement(view, names) if view["settlement"] else None
    _other_apps(ctx, match, None if spectator or local else seat)
    ctx["history"] = _history(view, names)
    for row in ctx["history"]:
        row["replay_url"] = _replay_url(match, row["hand_number"])
    ctx["known_cards"] = [card(c) for c in view["known_opponent_cards"]]
    ctx["hand_moves"] = [describe_move(m, names, seat) for m in view["moves"]]
    ctx["shuffle"] = _shuffle(view, names, seat, named_both=spectator or local)
    if view.get("lesson") is not None:
        lesson_panel.table_context(match, ctx)
    return ctx


def _other_apps(ctx: dict[str, Any], match: Match, reader: int | None) -> None:
    """What other apps add (``games.extras``): notes beside the names, lines under the
    result of a finished match."""
    notes = extras.notes_for(match)
    for player in ctx["players"]:
        player["note"] = notes.get(player["seat"], "")
    ctx["result_lines"] = [] if match.is_active else extras.lines_for(match, reader)


def _shuffle(
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


def _shuffling_status(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str]:
    """While the hand waits for the players' seeds: whose, and why."""
    seat = view["seat"]
    awaiting = view["shuffle"]["awaiting"]
    mine = seat in awaiting and not ctx["spectator"]
    others = [ctx["names"][s] for s in awaiting if s != seat or ctx["spectator"]]
    if mine:
        headline = _("Shuffling: sending your seed…")
    elif len(others) == 2:
        headline = _("Shuffling: waiting for %(first)s's and %(second)s's seeds.") % {
            "first": others[0],
            "second": others[1],
        }
    else:
        headline = _("Shuffling: waiting for %(name)s's seed.") % {"name": others[0]}
    detail = _(
        "The server committed to its secret for this hand before any seed was sent; the deal "
        "comes from it and each player's own random seed. A seed that has not come within "
        "%(seconds)s seconds counts as none."
    ) % {"seconds": SEED_WAIT_SECONDS}
    return {"headline": headline, "detail": detail}


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


def _last_move_line(view: dict[str, Any], names: dict[int, str]) -> str:
    """For watchers: the latest move, whoever made it."""
    if not view["moves"]:
        return ""
    move = view["moves"][-1]
    return _("%(name)s %(moves)s.") % {"name": names[move["seat"]], "moves": _move_phrase(move)}


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
    return {
        "deadline": live["move_deadline"],
        "left": f"{left // 60}:{left % 60:02d}",
        "mine": view["to_act"] == seat and not view.get("spectated"),
        "name": names[view["to_act"]],
    }


def _rules_line(rules: dict[str, Any], opponent: str, level: str) -> str:
    from games.forms import PRESET_NAMES, level_name

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


def _seat_names(view: dict[str, Any]) -> Any:
    """The names at a private table, which change when a newcomer takes the second seat."""
    live = view.get("live") or {}
    return live.get("names")


def _replay_url(match: Match, hand_number: int) -> str:
    """A finished hand's replay (games.replays): whoever reads the table may read it."""
    return reverse("games:replay", args=[match.public_id, hand_number])


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


def _status(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str]:
    """Whose turn and the phase, in words: a headline and one line of detail. An offer waiting
    for this reader's answer is named there too, with where to answer it (just below)."""
    status = _plain_status(view, ctx)
    offer = ctx["incoming"]
    if offer is None:
        return status
    values = {"name": ctx["opponent"]}
    if offer["kind"] == "rematch":
        return {
            "headline": _("%(name)s offers a rematch: accept or decline it just below.") % values,
            "detail": " ".join(part for part in (status["headline"], status["detail"]) if part),
        }
    return {
        "headline": status["headline"],
        "detail": _("%(name)s offers to restart the match: accept or decline it just below.")
        % values,
    }


def _plain_status(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str]:
    phase = view["phase"]
    closed = _closed_status(view, ctx)
    if closed is not None:
        return closed
    if phase == "shuffling" and view["shuffle"]["awaiting"] and not ctx["waiting"]:
        # At a private table the friend is what is awaited first (their seed comes with them).
        return _shuffling_status(view, ctx)
    if ctx["spectator"] and phase not in ("hand_over", "match_over"):
        mover = view["to_act"]
        return {
            "headline": _("%(name)s to move.") % {"name": ctx["names"][mover]}
            if mover is not None
            else "",
            "detail": _("You are watching: neither hand is shown until the hand ends."),
        }
    if phase == "match_over":
        settlement = view["settlement"] or {}
        if ctx["spectator"]:
            return {
                "headline": _("%(name)s won the match.")
                % {"name": ctx["names"].get(settlement.get("winner"), "")},
                "detail": "",
            }
        return {
            "headline": _("You won the match!")
            if settlement.get("winner") == view["seat"]
            else _("%(name)s won the match.") % {"name": ctx["opponent"]},
            "detail": _("The settlement is below. Start a new match when you are ready."),
        }
    if phase == "hand_over":
        return {
            "headline": _("Hand %(n)s is over.") % {"n": view["hand_number"]},
            "detail": _("Both hands are laid open below. Press Next hand to deal again."),
        }
    if ctx["waiting"]:
        return _waiting_status(view, ctx)
    if not ctx["my_turn"]:
        if ctx["opponent_is_bea"]:
            return {"headline": _("Bea is thinking…"), "detail": ""}
        return {"headline": _("Waiting for %(name)s…") % {"name": ctx["opponent"]}, "detail": ""}
    return _turn_status(view, ctx)


def _closed_status(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str] | None:
    """A match that ended before its last hand: resigned, abandoned, won on time, restarted."""
    status = view["match_status"]
    if status == Match.Status.RESIGNED or status == Match.Status.ABANDONED:
        winner = view_winner_name(ctx)
        word = _("resigned") if status == Match.Status.RESIGNED else _("abandoned")
        return {
            "headline": _("This match was %(how)s.") % {"how": word},
            "detail": _("%(winner)s won it.") % {"winner": winner} if winner else "",
        }
    if status == Match.Status.TIMED_OUT:
        return {
            "headline": _("This match was won on time."),
            "detail": _("%(winner)s claimed the win while the player to move was away.")
            % {"winner": view_winner_name(ctx)},
        }
    if status == Match.Status.RESTARTED:
        return {
            "headline": _("This match was restarted."),
            "detail": _("Both players agreed to start again; it counts for nobody."),
        }
    return None


def _waiting_status(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str]:
    """A private table whose second seat is empty: what is awaited is the friend, whoever
    moves first once they are here (that stays in the detail)."""
    # A seeded hand is dealt only once both seeds are in, but who opens it is known already.
    opens = view["seat"] != view["dealer"] if view["phase"] == "shuffling" else ctx["my_turn"]
    if view["phase"] == "shuffling" and opens:
        detail = _("Once they are here, you start: the cards are dealt from both your seeds.")
    elif not opens:
        detail = _("Once they are here, your friend plays first.")
    elif view["phase"] == "upcard_offer":
        top = display(view["discard_pile"][-1])
        detail = _("Once they are here, you start: take the upcard %(card)s or pass.") % {
            "card": top
        }
    else:
        detail = _("Once they are here, it is your turn.")
    return {
        "headline": _("Waiting for your friend to open the invitation link."),
        "detail": detail,
    }


def _turn_status(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str]:
    """This seat's move: what to do now."""
    opponent = ctx["opponent"]
    phase = view["phase"]
    top = display(view["discard_pile"][-1]) if view["discard_pile"] else ""
    if phase == "upcard_offer":
        if view["upcard_passes"] == 0:
            detail = _("If you pass, %(name)s may take it.") % {"name": opponent}
        else:
            detail = _(
                "%(name)s passed it. If you pass too, %(name)s draws first, from the stock."
            ) % {"name": opponent}
        return {
            "headline": _("Your turn: take the upcard %(card)s or pass.") % {"card": top},
            "detail": detail,
        }
    if phase == "draw":
        if view["stock_only"]:
            return {
                "headline": _("Your turn: draw from the stock."),
                "detail": _("Both players passed the upcard, so the first draw is from the stock."),
            }
        return {
            "headline": _("Your turn: draw a card."),
            "detail": _("Take the top of the stock, or %(card)s from the discard pile.")
            % {"card": top},
        }
    return {
        "headline": _("Your turn: discard a card."),
        "detail": _("Select a card, then discard it, or knock or go gin with it if you can."),
    }


def view_winner_name(ctx: dict[str, Any]) -> str:
    match: Match = ctx["match"]
    if match.winner_seat is None:
        return ""
    return str(ctx["names"][match.winner_seat])


# --- What happened ----------------------------------------------------------------------------


def _move_phrase(move: dict[str, Any]) -> str:
    label = display(move["card"]) if move.get("card") else ""
    kind = move["type"]
    if kind == "pass":
        return _("passed the upcard")
    if kind == "take_upcard":
        return _("took the upcard %(card)s") % {"card": label}
    if kind == "draw" and move.get("source") == "discard":
        return _("took %(card)s from the discard pile") % {"card": label}
    if kind == "draw":
        return (
            _("drew %(card)s from the stock") % {"card": label}
            if label
            else _("drew from the stock")
        )
    if kind == "discard":
        return _("discarded %(card)s") % {"card": label}
    if kind == "knock":
        return _("knocked, discarding %(card)s") % {"card": label}
    if kind == "gin":
        return _("went gin, discarding %(card)s") % {"card": label}
    if kind == "big_gin":
        return _("declared Big Gin")
    return kind


def _join(phrases: list[str]) -> str:
    if len(phrases) == 1:
        return phrases[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(phrases[:-1]), "last": phrases[-1]}


def opponent_moves(view: dict[str, Any], opponent: str) -> str:
    """What the opponent did in their last turn, e.g. "Bea drew from the stock and discarded
    7♥." Empty when they have not moved since this seat's last turn."""
    seat = view["seat"]
    moves = list(view["moves"])
    # Skip this seat's own draw of the turn in progress; once the hand has ended, a last move
    # of this seat's means the opponent did nothing since.
    if view["phase"] == "discard":
        while moves and moves[-1]["seat"] == seat:
            moves.pop()
    trailing: list[dict[str, Any]] = []
    for move in reversed(moves):
        if move["seat"] == seat:
            break
        trailing.append(move)
    if not trailing:
        return ""
    phrases = [_move_phrase(m) for m in reversed(trailing)]
    return _("%(name)s %(moves)s.") % {"name": opponent, "moves": _join(phrases)}


def describe_move(move: dict[str, Any], names: dict[int, str], seat: int) -> str:
    """One line of the hand's move log."""
    return _("%(name)s %(move)s") % {"name": names[move["seat"]], "move": _move_phrase(move)}


# --- The player's hand ------------------------------------------------------------------------


SORT_LABELS = {
    HandOrder.Sort.MELDS: gettext_lazy("melds first"),
    HandOrder.Sort.SUIT: gettext_lazy("by suit"),
    HandOrder.Sort.RANK: gettext_lazy("by rank"),
}
SORT_CYCLE = (HandOrder.Sort.MELDS, HandOrder.Sort.SUIT, HandOrder.Sort.RANK)


def _saved_order(seat: Seat | None) -> HandOrder | None:
    if seat is None or seat.pk is None:
        return None
    return HandOrder.objects.filter(seat=seat).first()


def _order_info(order: HandOrder | None) -> dict[str, str]:
    """The Sort button: the sort in use and the one a press switches to."""
    sort = HandOrder.Sort(order.sort) if order is not None else HandOrder.Sort.MELDS
    following = SORT_CYCLE[(SORT_CYCLE.index(sort) + 1) % len(SORT_CYCLE)]
    return {"sort": sort.value, "next": following.value, "next_label": str(SORT_LABELS[following])}


def just_drawn(view: dict[str, Any]) -> str:
    """The card this seat drew in the turn in progress (its own moves carry it), else ""."""
    moves = view["moves"]
    if view["phase"] != "discard" or not moves or moves[-1]["seat"] != view["seat"]:
        return ""
    last = moves[-1]
    return str(last.get("card") or "") if last["type"] in ("draw", "take_upcard") else ""


def _sorted_hand(view: dict[str, Any], order: HandOrder | None) -> list[tuple[str, bool, bool]]:
    """(code, melded, starts a group) for each card, in the order the player chose."""
    arrangement = view["arrangement"]
    melded = {c for meld in arrangement["melds"] for c in meld}
    hand = list(view["hand"])
    sort = order.sort if order is not None else HandOrder.Sort.MELDS
    if order is not None and order.cards and order.hand_number == view["hand_number"]:
        # The dragged order; a card drawn since goes to the end, where it is easy to find.
        kept = [c for c in order.cards if c in hand]
        codes = kept + [c for c in hand if c not in kept]
        return [(c, c in melded, False) for c in codes]
    if sort == HandOrder.Sort.MELDS:
        groups = [_meld_order(meld) for meld in arrangement["melds"]]
        loose = sorted(arrangement["deadwood_cards"], key=_by_suit)
        if loose:
            groups.append(loose)
        return [(c, c in melded, i == 0) for group in groups for i, c in enumerate(group)]
    key = _by_suit if sort == HandOrder.Sort.SUIT else _by_rank
    at = 1 if sort == HandOrder.Sort.SUIT else 0
    codes = sorted(hand, key=key)
    return [(c, c in melded, i > 0 and codes[i - 1][at] != c[at]) for i, c in enumerate(codes)]


def hand_cards(
    view: dict[str, Any], hint_action: dict[str, Any], order: HandOrder | None = None
) -> list[dict[str, Any]]:
    """The hand in the player's order (a sort, or where they dragged the cards), each card
    ready to draw: melded or not, selectable for the discard, and the card just drawn."""
    after = view["deadwood_after_discard"] or {}
    choosing = bool(after) and any(a["type"] == "discard" for a in view["legal_actions"])
    knock_cards = {a["card"] for a in view["legal_actions"] if a["type"] == "knock"}
    gin_cards = {a["card"] for a in view["legal_actions"] if a["type"] == "gin"}
    blocked = view["cannot_discard"]
    hinted = hint_action.get("card", "")
    drawn = just_drawn(view)
    return [
        card(
            code,
            melded=melded,
            group_start=group_start,
            selectable=choosing and code != blocked,
            blocked=choosing and code == blocked,
            after=after.get(code),
            knock=code in knock_cards,
            gin=code in gin_cards,
            hinted=code == hinted,
            fresh=code == blocked,
            just_drawn=code == drawn,
        )
        for code, melded, group_start in _sorted_hand(view, order)
    ]


def _pile(view: dict[str, Any], hint_action: dict[str, Any]) -> dict[str, Any]:
    legal = view["legal_actions"]
    kinds = {(a["type"], a.get("from")) for a in legal}
    pile = view["discard_pile"]
    hinted = ""
    if hint_action.get("type") == "draw":
        hinted = hint_action.get("from", "")
    elif hint_action.get("type") == "take_upcard":
        hinted = "discard"
    return {
        "top": card(pile[-1]) if pile else None,
        "cards": [card(c) for c in reversed(pile)],
        "count": len(pile),
        "stock_count": view["stock_count"],
        "can_draw_stock": ("draw", "stock") in kinds,
        "can_draw_discard": ("draw", "discard") in kinds,
        "can_take_upcard": ("take_upcard", None) in kinds,
        "hinted": hinted,
    }


def _discard_info(view: dict[str, Any]) -> dict[str, Any]:
    """For the discard phase: the reasons Knock or Gin cannot be pressed."""
    after = view["deadwood_after_discard"] or {}
    legal = view["legal_actions"]
    kinds = {a["type"] for a in legal}
    blocked = view["cannot_discard"]
    usable = {c: d for c, d in after.items() if c != blocked}
    best = min(usable.values()) if usable else None
    limit = view["rules"]["knock_limit"]
    why: list[str] = []
    refusal = ""
    if blocked:
        refusal = _("You took %(card)s from the discard pile: it cannot go back this turn.") % {
            "card": display(blocked)
        }
        why.append(refusal)
    if after and "knock" not in kinds and "gin" not in kinds and best is not None:
        why.append(
            _(
                "Knock needs %(limit)s or less deadwood after the discard; "
                "your best discard leaves %(best)s."
            )
            % {"limit": limit, "best": best}
        )
    return {
        "best": best,
        "limit": limit,
        "can_knock": "knock" in kinds,
        "can_gin": "gin" in kinds,
        "can_big_gin": "big_gin" in kinds,
        "why": why,
        # Why the card just taken refuses a discard gesture (gestures.js shows it).
        "refusal": refusal,
    }


# --- End of hand and of match -----------------------------------------------------------------


def result_context(
    view: dict[str, Any], names: dict[int, str], seat: int, spectator: bool = False
) -> dict[str, Any]:
    """The last hand laid open: both hands' melds, the layoffs, deadwood, kind and points."""
    last = view["last_hand"]
    kind = last["kind"]
    knocker = last["knocker"]
    winner = last["winner"]
    layoffs = last.get("layoffs") or []
    laid_on: dict[int, list[str]] = {}
    for layoff in layoffs:
        laid_on.setdefault(layoff["meld"], []).append(layoff["card"])
    laid_cards = {layoff["card"] for layoff in layoffs}
    sides = []
    for s in (seat, 1 - seat):
        melds = []
        for index, meld in enumerate(last["melds"][s]):
            # Laid-off cards sit in the knocker's meld where they fit, marked as laid off.
            extra = laid_on.get(index, []) if s == knocker else []
            cards = [
                card(c, melded=c not in extra, laid_off=c in extra)
                for c in _meld_order([*meld, *extra])
            ]
            melds.append({"cards": cards})
        deadwood = [card(c) for c in sorted(last["deadwood_cards"][s], key=_by_suit)]
        sides.append(
            {
                "seat": s,
                "name": names[s],
                "knocker": s == knocker,
                "winner": s == winner,
                "melds": melds,
                "deadwood_cards": deadwood,
                "deadwood": last["deadwood"][s],
                "laid_off": [card(c) for c in sorted(laid_cards, key=_by_suit)]
                if s != knocker and knocker is not None
                else [],
            }
        )
    return {
        "kind": kind,
        "kind_name": KIND_NAMES.get(kind, kind),
        "hand_number": last.get("hand_number"),
        "points": last["points"],
        "headline": _watched_headline(kind, knocker, winner, last["points"], names)
        if spectator
        else _result_headline(kind, knocker, winner, last["points"], names, seat),
        "sides": sides,
        "undercut_bonus": view["rules"]["undercut_bonus"],
    }


def _result_headline(
    kind: str,
    knocker: int | None,
    winner: int | None,
    points_won: int,
    names: dict[int, str],
    seat: int,
) -> str:
    if kind == "draw" or knocker is None or winner is None:
        return _("A draw: the stock ran down to two cards. No points; the same dealer deals again.")
    you_knocked = knocker == seat
    other = names[1 - seat]
    values = {"name": other, "points": points_won}
    if kind == "undercut":
        if you_knocked:
            return _("%(name)s undercut your knock and scores %(points)s.") % values
        return _("You undercut %(name)s's knock and score %(points)s.") % values
    if kind == "gin":
        if you_knocked:
            return _("You went gin and score %(points)s.") % values
        return _("%(name)s went gin and scores %(points)s.") % values
    if kind == "big_gin":
        if you_knocked:
            return _("You went Big Gin and score %(points)s.") % values
        return _("%(name)s went Big Gin and scores %(points)s.") % values
    if you_knocked:
        return _("You knocked and score %(points)s.") % values
    return _("%(name)s knocked and scores %(points)s.") % values


def _watched_headline(
    kind: str, knocker: int | None, winner: int | None, points_won: int, names: dict[int, str]
) -> str:
    """The hand's result in the third person, for watchers."""
    if kind == "draw" or knocker is None or winner is None:
        return _("A draw: the stock ran down to two cards. No points; the same dealer deals again.")
    values = {"name": names[winner], "other": names[1 - winner], "points": points_won}
    if kind == "undercut":
        return _("%(name)s undercut %(other)s's knock and scores %(points)s.") % values
    if kind == "gin":
        return _("%(name)s went gin and scores %(points)s.") % values
    if kind == "big_gin":
        return _("%(name)s went Big Gin and scores %(points)s.") % values
    return _("%(name)s knocked and scores %(points)s.") % values


def _settlement(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    s = view["settlement"]
    winner, loser = s["winner"], s["loser"]
    return {
        "winner": names[winner],
        "loser": names[loser],
        "columns": [names[winner], names[loser]],
        "rows": [
            (_("Points"), s["scores"][winner], s["scores"][loser]),
            (_("Game bonus"), s["game_bonus"], 0),
            *(
                # Rules without a box bonus (the classic preset) have no row of zeros for it.
                [
                    (
                        _("Boxes (%(bonus)s per hand won)") % {"bonus": s["box_bonus"]},
                        s["boxes"][winner],
                        s["boxes"][loser],
                    )
                ]
                if s["box_bonus"]
                else []
            ),
            (_("Tally"), s["tallies"][winner], s["tallies"][loser]),
        ],
        "hands_won": (s["hands_won"][winner], s["hands_won"][loser]),
        "shutout": s["shutout"],
        "doubled": s["doubled"],
        "net": s["net"],
    }


def _history(view: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    rows = []
    for h in view["history"]:
        winner = h.get("winner")
        rows.append(
            {
                "hand_number": h["hand_number"],
                "kind": KIND_NAMES.get(h["kind"], h["kind"]),
                "winner": names[winner] if winner is not None else "—",
                "points": h["points"],
            }
        )
    return rows


# --- Which regions changed, and their HTML ----------------------------------------------------


def _draw_moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [a for a in view["legal_actions"] if a["type"] in ("draw", "take_upcard")]


def region_data(view: dict[str, Any], name: str) -> Any:
    """What region ``name`` renders from ``view``: it changed iff this changed.

    A region that holds a form also depends on the version its hidden input carries.
    """
    legal = view["legal_actions"]
    status = view.get("match_status")
    ended = view["phase"] in ("hand_over", "match_over")
    if name == "version":
        return view["version"]
    if name == "lesson":
        # Only a lesson's view has one; the match's status: a lesson that was left says so.
        return (view["lesson"], status) if view.get("lesson") is not None else None
    if name == "live":
        # Its forms carry the version; presence and offers change without a move.
        live = view.get("live")
        return (live, view["version"], status) if live is not None else None
    if name in ("status", "hint", "notice"):
        # The status names the last move and an offer to answer; a hint is stale after any
        # move; a notice is about the previous request.
        return (
            view["version"],
            view["phase"],
            status,
            view.get("blocked"),
            _seat_names(view),
            incoming_offer(view) if name == "status" else None,
        )
    if name == "answer":
        # Its form carries the version.
        offer = incoming_offer(view)
        return (offer, view["version"]) if offer is not None else None
    if name == "after":
        # What follows a match: its forms carry the version; offers and the next match change
        # without a move.
        if not match_over(view):
            return None
        live = view.get("live") or {}
        return (view["version"], status, live.get("next"), live.get("offer"), live.get("answered"))
    if name == "scores":
        return (
            view["scores"],
            view["hands_won"],
            view["hand_number"],
            view["dealer"],
            _seat_names(view),
        )
    if name == "opponent":
        return (
            view["opponent_card_count"],
            view["known_opponent_cards"],
            ended,
            status,
            _seat_names(view),
        )
    if name == "pile":
        draws = _draw_moves(view)
        return (
            view["discard_pile"],
            view["stock_count"],
            draws,
            view["version"] if draws else None,
            view.get("blocked"),
        )
    if name == "hand":
        discards = [a for a in legal if a["type"] in ("discard", "knock", "gin")]
        return (
            view["hand"],
            view["arrangement"],
            view["deadwood_after_discard"],
            discards,
            ended,
            view.get("spectated"),
        )
    if name == "actions":
        return (
            legal,
            view.get("shuffle"),
            view["phase"],
            view["to_act"],
            status,
            view["version"] if legal else None,
            view.get("blocked"),
        )
    if name == "result":
        return (view["last_hand"], view["settlement"], ended, status)
    if name == "history":
        return (view["history"], view["moves"], view.get("shuffle"))
    raise ValueError(f"unknown region {name!r}")


def changed_regions(before: dict[str, Any] | None, after: dict[str, Any]) -> list[str]:
    """The regions whose data differs between two views of one reader (all of them without a
    ``before``). Both views come from ``readers.view_for``."""
    if before is None:
        return list(REGIONS)
    return [name for name in REGIONS if region_data(before, name) != region_data(after, name)]


def render_regions(
    names: list[str] | tuple[str, ...],
    context: dict[str, Any],
    request: HttpRequest | None = None,
) -> str:
    """The named regions as out-of-band swaps, concatenated."""
    ctx = {**context, "oob": True}
    return "".join(render_to_string(f"games/table.html#{n}", ctx, request) for n in names)


def render_update(
    match: Match,
    seat: int,
    before: dict[str, Any] | None,
    after: dict[str, Any],
    *,
    request: HttpRequest | None = None,
    notice: str = "",
    always: tuple[str, ...] = ("notice",),
    spectator: bool = False,
    csrf_token: str = "",
) -> str:
    """The out-of-band HTML that brings a page showing ``before`` to ``after`` for ``seat``
    (or a watcher, with ``spectator``); both views come from ``readers.view_for``.

    This is what the htmx views answer and what a websocket consumer pushes to each reader.
    """
    if spectator:
        before = spectator_as_view(before) if before is not None else None
        after = spectator_as_view(after)
    names = changed_regions(before, after)
    names = [n for n in REGIONS if n in names or n in always]
    if not names:
        return ""
    context = table_context(match, seat, after, notice=notice, spectator=spectator)
    if request is None:
        # Pushed over a socket: no request, so the forms take the token from the cookie.
        # Without one they render no token field and htmx's X-CSRFToken header carries it.
        context["csrf_token"] = csrf_token
    return render_regions(names, context, request)
