"""The published shape of a match's ``view``, ``live`` and ``rules`` (``games.api.matches``): the
engine's ``player_view`` / ``spectator_view`` and what ``games.readers`` adds, field by field.

Documentation only: the answers are built as dicts and sent as they are, so a field the engine
gains is never dropped on the way out; tests/api/test_answers_match_schema.py checks real
answers against this with every object closed, so it fails until the field is described here.
"""

from __future__ import annotations

from typing import Any

from games.engine.state import ACTION_TYPES, PHASES

CARD: dict[str, Any] = {
    "type": "string",
    "pattern": "^[A23456789TJQK][SHDC]$",
    "description": 'A card: rank (A 2-9 T J Q K) and suit (S H D C), "TD" the ten of diamonds.',
}
CARDS: dict[str, Any] = {"type": "array", "items": CARD}
SEAT: dict[str, Any] = {"type": "integer", "enum": [0, 1]}
PAIR: dict[str, Any] = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}


def obj(properties: dict[str, Any], description: str = "", optional: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    node: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": [k for k in properties if k not in optional],
        "additionalProperties": True,
    }
    if description:
        node["description"] = description
    return node


def nullable(node: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [node, {"type": "null"}]}


ACTION = obj(
    {
        "type": {
            "type": "string",
            "enum": list(ACTION_TYPES),
        },
        "from": {"type": "string", "enum": ["stock", "discard"], "description": "A draw's pile."},
        "card": CARD,
        "seed": {"type": "string", "description": "A seed action's own seed (sent, not shown)."},
    },
    "One legal action, as `POST /matches/{id}/actions` takes it in `action`.",
    optional=("from", "card", "seed"),
)

MOVE = obj(
    {
        "seat": SEAT,
        "type": {"type": "string"},
        "source": {"type": "string", "enum": ["stock", "discard"]},
        "card": CARD,
    },
    "A move of this hand. A card drawn from the stock is shown only to its drawer.",
    optional=("source", "card"),
)

ARRANGEMENT = obj(
    {
        "melds": {"type": "array", "items": CARDS, "description": "Sets and runs."},
        "deadwood_cards": CARDS,
        "deadwood": {
            "type": "integer",
            "description": "The deadwood count of the best arrangement.",
        },
    },
    "Your hand at its best arrangement (least deadwood).",
)

LAYOFF = obj(
    {"card": CARD, "meld": {"type": "integer", "description": "Index in the knocker's melds."}}
)

HAND_RESULT = obj(
    {
        "hand_number": {"type": "integer"},
        "kind": {"type": "string", "enum": ["knock", "gin", "big_gin", "undercut", "draw"]},
        "knocker": nullable(SEAT),
        "winner": nullable(SEAT),
        "points": {"type": "integer"},
        "hands": {"type": "array", "items": CARDS, "description": "Both hands, face up."},
        "melds": {"type": "array", "items": {"type": "array", "items": CARDS}},
        "deadwood_cards": {"type": "array", "items": CARDS},
        "deadwood": PAIR,
        "layoffs": {"type": "array", "items": LAYOFF},
    },
    "How the last hand ended: both hands open, melds, lay-offs, deadwood, points.",
    optional=("hands", "melds", "deadwood_cards", "layoffs"),
)

HISTORY_ROW = obj(
    {
        "hand_number": {"type": "integer"},
        "kind": {"type": "string"},
        "knocker": nullable(SEAT),
        "winner": nullable(SEAT),
        "points": {"type": "integer"},
        "deadwood": PAIR,
    },
    "A finished hand of this match (its replay: `GET /matches/{id}/hands/{n}/replay`).",
)

SETTLEMENT = obj(
    {
        "winner": SEAT,
        "loser": SEAT,
        "scores": PAIR,
        "hands_won": PAIR,
        "boxes": PAIR,
        "tallies": PAIR,
        "box_bonus": {"type": "integer"},
        "game_bonus": {"type": "integer"},
        "shutout": {"type": "boolean"},
        "doubled": {"type": "boolean"},
        "net": {"type": "integer", "description": "What the winner won by, bonuses included."},
    },
    "The match's final account, once it is over.",
)

SHUFFLE = obj(
    {
        "scheme": {"type": "string"},
        "hand_number": {"type": "integer"},
        "commitment": {"type": "string", "description": "SHA-256 of the server seed."},
        "seeded": {"type": "array", "items": {"type": "boolean"}},
        "seeders": {
            "type": "array",
            "items": SEAT,
            "description": "Seats whose seed the deal takes.",
        },
        "awaiting": {"type": "array", "items": SEAT, "description": "Seats whose seed is awaited."},
        "deal_by": {
            "type": "string",
            "format": "date-time",
            "description": "Dealt without the awaited seeds then.",
        },
    },
    "This hand's provably fair deal while it is played (docs/fairness.md).",
    optional=("seeders", "awaiting", "deal_by"),
)

RULES = obj(
    {
        "name": {"type": "string", "enum": ["standard", "classic", "simple"]},
        "target": {"type": "integer"},
        "knock_limit": {"type": "integer"},
        "gin_bonus": {"type": "integer"},
        "big_gin": {"type": "boolean"},
        "big_gin_bonus": {"type": "integer"},
        "undercut_bonus": {"type": "integer"},
        "box_bonus": {"type": "integer"},
        "game_bonus": {"type": "integer"},
        "shutout_double": {"type": "boolean"},
        "upcard_offer": {"type": "boolean"},
        "next_dealer": {"type": "string"},
    },
    "The match's rules (RULES.md): its preset and what it sets.",
)

OFFER = obj(
    {
        "id": {"type": "integer"},
        "kind": {"type": "string", "enum": ["rematch", "restart"]},
        "from_seat": SEAT,
        "status": {"type": "string"},
        "until": {"type": "string", "format": "date-time"},
    },
    optional=("status", "until"),
)

LIVE = nullable(
    obj(
        {
            "connected": {"type": "array", "items": {"type": "boolean"}},
            "move_deadline": nullable({"type": "string", "format": "date-time"}),
            "days_per_move": nullable({"type": "integer"}),
            "next": nullable(
                {"type": "string", "description": "The match an accepted offer started."}
            ),
            "offer": nullable(OFFER),
            "answered": nullable(OFFER),
            "claimable": {"type": "boolean", "description": "You may claim the win now."},
            "claim_reason": {"type": "string", "enum": ["clock", "away"]},
            "active": {"type": "boolean", "description": "The match is still being played."},
            "open": {"type": "array", "items": {"type": "boolean"}},
            "names": {"type": "array", "items": {"type": "string"}},
        },
        "Between two people: presence, the move clock, the open offer, the next match.",
        optional=("claim_reason", "open", "names"),
    )
)

_COMMON: dict[str, Any] = {
    "phase": {
        "type": "string",
        "enum": list(PHASES),
    },
    "to_act": nullable(SEAT),
    "hand": CARDS,
    "discard_pile": {**CARDS, "description": "Bottom first: the last card is the top."},
    "stock_count": {"type": "integer"},
    "legal_actions": {"type": "array", "items": ACTION},
    "scores": PAIR,
    "hands_won": PAIR,
    "dealer": SEAT,
    "hand_number": {"type": "integer"},
    "upcard_passes": {
        "type": "integer",
        "description": "How many players passed the upcard this hand (0-2).",
    },
    "moves": {"type": "array", "items": MOVE},
    "last_hand": nullable(HAND_RESULT),
    "history": {"type": "array", "items": HISTORY_ROW},
    "settlement": nullable(SETTLEMENT),
    "version": {"type": "integer"},
    "rules": RULES,
    "shuffle": nullable(SHUFFLE),
    # In a match's answer `live` stands beside the view; a `match` event's view carries it.
    "live": LIVE,
    "match_status": {"type": "string"},
    "blocked": {
        "type": "string",
        "description": 'Why your moves wait (a private table\'s friend away), or "".',
    },
}

PLAYER_VIEW = obj(
    {
        "seat": SEAT,
        **_COMMON,
        "arrangement": ARRANGEMENT,
        "opponent_card_count": {"type": "integer"},
        "known_opponent_cards": {**CARDS, "description": "Seen when they took them from the pile."},
        "stock_only": {
            "type": "boolean",
            "description": "Both passed the upcard: this draw is from the stock only.",
        },
        "cannot_discard": nullable(
            {**CARD, "description": "The card you just took from the pile (not to be discarded)."}
        ),
        "deadwood_after_discard": nullable(
            {
                "type": "object",
                "additionalProperties": {"type": "integer"},
                "description": "When you are to discard: each card's deadwood after discarding it.",
            }
        ),
    },
    "Your seat's view (player_view): your hand, what is public, the legal actions.",
    optional=("live",),
)

SPECTATOR_VIEW = obj(
    {
        "seat": {"type": "null"},
        **_COMMON,
        "card_counts": PAIR,
        "known_cards": {"type": "array", "items": CARDS},
    },
    "A watcher's view: public information only.",
    optional=("live",),
)

VIEW = {"anyOf": [PLAYER_VIEW, SPECTATOR_VIEW]}


def replacing(node: dict[str, Any]):  # type: ignore[no-untyped-def]
    """A ``json_schema_extra`` that puts ``node`` in place of the field's generated schema,
    keeping its description."""

    def apply(schema: dict[str, Any]) -> None:
        description = schema.get("description")
        schema.clear()
        schema.update(node)
        if description:
            schema["description"] = description

    return apply
