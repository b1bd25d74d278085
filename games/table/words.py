"""What the table says of the play, in words: the status line (whose turn and the phase, a
headline and one line of detail, and an offer waiting for this reader's answer), and the moves
of a hand (the move log, what the opponent just did, the latest move; also the replays')."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.engine import display
from games.models import Match
from games.state_cache import SEED_WAIT_SECONDS


def status_line(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str]:
    """Whose turn and the phase, in words: a headline and one line of detail. An offer waiting
    for this reader's answer is named there too, with where to answer it (just below)."""
    status = plain_status(view, ctx)
    clock = ctx.get("clock") or {}
    if clock.get("days"):
        # Correspondence: the days left, in the first line a phone shows (the table's clock
        # below says until when).
        days = _("Correspondence: %(left)s.") % {"left": clock["left"]}
        status = {**status, "detail": " ".join(p for p in (status["detail"], days) if p)}
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


def plain_status(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str]:
    phase = view["phase"]
    closed = closed_status(view, ctx)
    if closed is not None:
        return closed
    if phase == "shuffling" and view["shuffle"]["awaiting"] and not ctx["waiting"]:
        # At a private table the friend is what is awaited first (their seed comes with them).
        return shuffling_status(view, ctx)
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
        return waiting_status(view, ctx)
    if not ctx["my_turn"]:
        if ctx["opponent_is_bea"]:
            return {"headline": _("Bea is thinking…"), "detail": ""}
        return {"headline": _("Waiting for %(name)s…") % {"name": ctx["opponent"]}, "detail": ""}
    return turn_status(view, ctx)


def closed_status(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str] | None:
    """A match that ended before its last hand: resigned, abandoned, won on time, restarted."""
    status = view["match_status"]
    if status == Match.Status.RESIGNED or status == Match.Status.ABANDONED:
        winner = view_winner_name(ctx)
        word = _("resigned") if status == Match.Status.RESIGNED else _("abandoned")
        if _reader_won(view, ctx):
            # "You" takes another verb form than a name in German ("Du hast", not "Du hat").
            detail = _("You won it.")
        else:
            detail = _("%(winner)s won it.") % {"winner": winner} if winner else ""
        return {"headline": _("This match was %(how)s.") % {"how": word}, "detail": detail}
    if status == Match.Status.TIMED_OUT:
        if _reader_won(view, ctx):
            detail = (
                _("You claimed the win: the player to move let their time to move run out.")
                if ctx["match"].days_per_move
                else _("You claimed the win while the player to move was away.")
            )
        else:
            detail = (
                _("%(winner)s claimed the win: the player to move let their time to move run out.")
                if ctx["match"].days_per_move
                else _("%(winner)s claimed the win while the player to move was away.")
            ) % {"winner": view_winner_name(ctx)}
        return {"headline": _("This match was won on time."), "detail": detail}
    if status == Match.Status.RESTARTED and ctx["match"].kind == Match.Kind.BEA:
        return {
            "headline": _("This match was set aside."),
            "detail": _("You left it for a person the pool found you; it counts for nobody."),
        }
    if status == Match.Status.RESTARTED:
        return {
            "headline": _("This match was restarted."),
            "detail": _("Both players agreed to start again; it counts for nobody."),
        }
    return None


def waiting_status(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str]:
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


def turn_status(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str]:
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


def _reader_won(view: dict[str, Any], ctx: dict[str, Any]) -> bool:
    """The reader is the winner and the page calls them "you" (not a watcher, not one shared
    screen, where both players go by name)."""
    winner = ctx["match"].winner_seat
    return (
        winner is not None
        and winner == view["seat"]
        and not ctx["spectator"]
        and not ctx.get("local")
    )


def view_winner_name(ctx: dict[str, Any]) -> str:
    match: Match = ctx["match"]
    if match.winner_seat is None:
        return ""
    return str(ctx["names"][match.winner_seat])


def shuffling_status(view: dict[str, Any], ctx: dict[str, Any]) -> dict[str, str]:
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


# --- The moves in words ------------------------------------------------------------------------


def move_phrase(move: dict[str, Any]) -> str:
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
    phrases = [move_phrase(m) for m in reversed(trailing)]
    return _("%(name)s %(moves)s.") % {"name": opponent, "moves": _join(phrases)}


def describe_move(move: dict[str, Any], names: dict[int, str], seat: int) -> str:
    """One line of the hand's move log."""
    return _("%(name)s %(move)s") % {"name": names[move["seat"]], "move": move_phrase(move)}


def last_move_line(view: dict[str, Any], names: dict[int, str]) -> str:
    """For watchers: the latest move, whoever made it."""
    if not view["moves"]:
        return ""
    move = view["moves"][-1]
    return _("%(name)s %(moves)s.") % {"name": names[move["seat"]], "moves": move_phrase(move)}


def add_talk(ctx: dict[str, Any], view: dict[str, Any], seat: int, spectator: bool) -> None:
    """What the table says (``ctx`` holds who is where, the clock and the offers): the status
    line, the last moves in words, and the moves of the hand so far."""
    names = ctx["names"]
    ctx["status"] = status_line(view, ctx)
    ctx["last_moves"] = (
        last_move_line(view, names) if spectator else opponent_moves(view, ctx["opponent"])
    )
    ctx["hand_moves"] = [describe_move(m, names, seat) for m in view["moves"]]
