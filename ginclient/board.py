"""A player's view as a readable board in the terminal, and its legal actions as a menu."""

from __future__ import annotations

from typing import Any

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_ORDER = "A23456789TJQK"


def card(code: str) -> str:
    rank, suit = code[:-1], code[-1]
    return ("10" if rank == "T" else rank) + SUITS.get(suit, suit)


def cards(codes: list[str]) -> str:
    return " ".join(card(c) for c in codes) or "—"


def _sorted(codes: list[str]) -> list[str]:
    return sorted(codes, key=lambda c: ("SHDC".find(c[-1]), RANK_ORDER.find(c[:-1])))


def describe(action: dict[str, Any], view: dict[str, Any]) -> str:
    """An action in words."""
    kind = action.get("type")
    pile = view.get("discard_pile") or []
    top = card(pile[-1]) if pile else ""
    if kind == "draw":
        if action.get("from") == "discard":
            return f"draw {top} from the discard pile"
        return "draw from the stock"
    if kind == "take_upcard":
        return f"take the upcard {top}"
    if kind == "pass":
        return "pass on the upcard"
    if kind in ("discard", "knock", "gin"):
        after = (view.get("deadwood_after_discard") or {}).get(action.get("card", ""))
        extra = f" (deadwood {after})" if after is not None else ""
        verb = {"discard": "discard", "knock": "knock, discarding", "gin": "go gin, discarding"}
        return f"{verb[kind]} {card(action['card'])}{extra}"
    if kind == "big_gin":
        return "big gin!"
    if kind == "next_hand":
        return "deal the next hand"
    if kind == "seed":
        return "send our random seed for the deal"
    return str(action)


def names(match: dict[str, Any]) -> tuple[str, str]:
    """(you, opponent) display names from a match summary."""
    seat = match.get("seat") or 0
    seats = {s["seat"]: s["display_name"] for s in match.get("seats", [])}
    return seats.get(seat, "you"), seats.get(1 - seat, "opponent")


def render(match: dict[str, Any]) -> str:
    """The whole board for a match detail (``GET /matches/{id}``)."""
    view = match["view"]
    me, them = names(match)
    seat = view.get("seat")
    rules = view.get("rules") or {}
    scores = view.get("scores") or [0, 0]
    lines = [
        f"Match {match['id']} · {me} vs {them} · {rules.get('name', '?')} to "
        f"{rules.get('target', '?')} · hand {view.get('hand_number')} · "
        f"version {view.get('version')}",
    ]
    if seat is None:
        lines.append(f"Watching. Scores: {scores[0]} – {scores[1]}")
    else:
        lines.append(f"Scores: {me} {scores[seat]} · {them} {scores[1 - seat]}")
    pile = view.get("discard_pile") or []
    lines.append(
        f"Discard pile: {cards(pile[-5:])}"
        + (f"   (top {card(pile[-1])})" if pile else "")
        + f"   Stock: {view.get('stock_count')} cards"
    )
    if seat is not None:
        lines.append(f"{them} holds {view.get('opponent_card_count')} cards")
        known = view.get("known_opponent_cards") or []
        if known:
            lines.append(f"{them} took from the pile and still holds: {cards(known)}")
        arrangement = view.get("arrangement") or {}
        melds = arrangement.get("melds") or []
        loose = arrangement.get("deadwood_cards")
        if loose is None:
            in_melds = {c for m in melds for c in m}
            loose = [c for c in view.get("hand", []) if c not in in_melds]
        lines.append("Your hand:")
        lines.append("  Melds:    " + ("  ".join(f"[{cards(m)}]" for m in melds) or "—"))
        lines.append(
            f"  Deadwood: {cards(_sorted(loose))}  ({arrangement.get('deadwood', '?')} points)"
        )
    last = view.get("last_hand")
    if last and view.get("phase") in ("hand_over", "match_over"):
        lines.append(_last_hand(last, seat, me, them))
    settlement = view.get("settlement")
    if settlement:
        winner = settlement.get("winner")
        who = me if winner == seat else them
        lines.append(f"Match over: {who} wins (net {settlement.get('net')}).")
    elif match.get("status") not in (None, "active"):
        lines.append(f"Match {match['status']}.")
    shuffle = view.get("shuffle") or {}
    if view.get("phase") == "shuffling":
        waiting = [me if s == seat else them for s in shuffle.get("awaiting") or []]
        lines.append(f"Shuffling: waiting for the seed of {' and '.join(waiting) or 'nobody'}.")
    elif seat is not None and view.get("phase") not in ("hand_over", "match_over"):
        to_act = view.get("to_act")
        lines.append("Your turn." if to_act == seat else f"Waiting for {them}.")
    return "\n".join(lines)


def _last_hand(last: dict[str, Any], seat: int | None, me: str, them: str) -> str:
    winner = last.get("winner")
    kind = last.get("kind", "")
    if winner is None:
        return f"Hand over: {kind} — nobody scores."
    who = me if winner == seat else them
    return f"Hand over: {kind}, {who} scores {last.get('points', 0)}."


def menu(view: dict[str, Any]) -> list[str]:
    """The legal actions as numbered lines (1-based)."""
    return [f"  {i}) {describe(a, view)}" for i, a in enumerate(view.get("legal_actions", []), 1)]


def render_replay(replay: dict[str, Any]) -> str:
    """A finished hand (``GET /matches/{id}/hands/{n}/replay``), move by move: each move, both
    hands after it, Bea's notes under it, then the result."""
    seats = {p["seat"]: p["name"] for p in replay.get("players", [])}
    width = max((len(name) for name in seats.values()), default=0)
    lines = [
        f"Hand {replay['hand_number']} of match {replay['match']} · "
        + " vs ".join(seats.get(s, "?") for s in (0, 1))
        + f" · {seats.get(replay.get('dealer'), '?')} deals"
    ]
    for move in replay.get("moves", []):
        lines.append(f"{move['index']:3}. {move['text']}")
        for seat, held in enumerate(move.get("hands") or []):
            dead = (move.get("deadwood") or [None, None])[seat]
            lines.append(f"     {seats.get(seat, '?'):{width}}  {cards(_sorted(held))}  ({dead})")
        pile = move.get("discard_pile") or []
        top = card(pile[-1]) if pile else "—"
        lines.append(f"     pile top {top} · stock {move.get('stock_count')}")
        for note in move.get("notes") or []:
            lines.append(f"     * {note.get('text') or note.get('code')}")
    result = replay.get("result") or {}
    winner = result.get("winner")
    scores = replay.get("scores") or [0, 0]
    deadwood = result.get("deadwood") or [0, 0]
    if winner is None:
        lines.append("Result: a draw, nobody scores.")
    else:
        lines.append(
            f"Result: {result.get('kind')}, {seats.get(winner, '?')} scores "
            f"{result.get('points', 0)} (deadwood {seats.get(0)} {deadwood[0]}, "
            f"{seats.get(1)} {deadwood[1]})."
        )
    lines.append(f"Scores: {seats.get(0)} {scores[0]} · {seats.get(1)} {scores[1]}")
    return "\n".join(lines)
