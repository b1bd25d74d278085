"""Quick messages in the JSON API: a seat says one of the fixed phrases, any reader mutes a
match's messages. ``games.live.quick_messages`` decides; the messages reach the players' event
streams as ``message`` events and the tables as bubbles."""

from __future__ import annotations

from typing import Any, Literal

from django.http import HttpRequest
from ninja import Field, Router, Schema

from games.api import asker as api_asker
from games.live import quick_messages
from ginsite.lib.apikit import ERRORS, Body, Error, user_of

router = Router()

_IDS = ", ".join(f"`{key}`" for key in quick_messages.MESSAGES)


# The fixed set, spelled out so that the schema says it (tests/api check it against MESSAGES).
MessageId = Literal["good_luck", "good_game", "nice_gin", "thanks", "well_played", "oops"]


class MessageIn(Body):
    message: MessageId = Field(
        description=f"One of {_IDS}; any other id is refused (400 `malformed`).",
        examples=["good_luck"],
    )


class MessageOut(Schema):
    match: str
    seat: int
    message: str
    text: str = Field(description="The phrase in English (each reader's table shows their own).")


class MuteIn(Body):
    muted: bool = Field(description="true mutes, false shows them again (no 0 or 1).")


class MuteOut(Schema):
    match: str
    muted: bool


@router.post(
    "/matches/{match_id}/messages", response={200: MessageOut, ERRORS: Error}, tags=["messages"]
)
def send_message(request: HttpRequest, match_id: str, body: MessageIn) -> dict[str, Any]:
    """Say a quick message to the table (a match between two people, as one of its players):
    both players see it; one per 3 seconds (429 with `Retry-After` sooner); watchers may not
    send (403)."""
    asker = api_asker.reader(user_of(request), match_id)
    quick_messages.send(asker.match, asker.seat, body.message)
    return {
        "match": asker.match.public_id,
        "seat": asker.seat,
        "message": body.message,
        "text": str(quick_messages.MESSAGES[body.message]),
    }


@router.post(
    "/matches/{match_id}/messages/mute", response={200: MuteOut, ERRORS: Error}, tags=["messages"]
)
def mute_messages(request: HttpRequest, match_id: str, body: MuteIn) -> dict[str, Any]:
    """Mute (or unmute) this match's quick messages for you: no bubble at your table, no
    `message` event on your stream."""
    asker = api_asker.reader(user_of(request), match_id)
    reader = quick_messages.reader_key(asker.seat, user_of(request))
    quick_messages.set_muted(asker.match, reader, body.muted)
    return {"match": asker.match.public_id, "muted": body.muted}
