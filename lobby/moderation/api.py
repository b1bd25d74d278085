"""Reports in the JSON API: the same function the report page calls (``reports.report``),
with its refusals turned into JSON by ``ginsite.api``. docs/api.md, "Reports"."""

from __future__ import annotations

from typing import Literal

from django.http import HttpRequest
from ninja import Field, Router, Schema, Status

from ginsite.lib.apikit import ERRORS, Body, Error, user_of

from . import reports
from .models import NOTE_MAX

router = Router()

ReasonId = Literal["rating_abuse", "rude_messages", "bot", "stalling", "other"]


class ReportIn(Body):
    reason: ReasonId
    note: str = Field("", max_length=NOTE_MAX, pattern=r"^[^\x00]*$")
    match: str | None = Field(
        None, max_length=64, pattern=r"^[^\x00]*$", description="A match the two of you played."
    )


class ReportOut(Schema):
    message: str = Field(description="Thanks: all a reporter is ever told of a report.")


@router.post(
    "/players/{username}/reports", response={201: ReportOut, ERRORS: Error}, tags=["players"]
)
def report_player(request: HttpRequest, username: str, body: ReportIn) -> Status:
    """Report a player to the moderators, for one of a fixed list of reasons, with a short
    note and a match you played against them (both optional). See docs/api.md for the limits."""
    reports.report(user_of(request), username, body.reason, body.note, body.match)
    return Status(201, {"message": reports.thanks()})
