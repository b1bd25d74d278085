"""What a sanctioned player reads of it: a notice on every page of theirs until they
acknowledge it, pushed at once to the pages they have open (their lobby and tables, on any
server process) and recorded in their event stream.

The notice region (``#moderation-notice``, in ``_base.html`` through the ``moderation_notice``
tag) lists the sanctions they have not acknowledged (``sanctions.notices_for``). After every
change (a sanction given or lifted, an acknowledgement) ``changed`` renders it in each of the
site's languages and sends it to the player's page sockets, each of which sends the one in
its own language (``ginsite.lib.sockets.SiteConsumerMixin.page_notice``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from ginsite.lib.after_commit import page_notice
from lobby.events import log as event_log
from lobby.models import ensure_profile
from lobby.moderation.models import Sanction
from lobby.moderation.sanctions import standing as sanctions

TEMPLATE = "moderation/notice.html"


def context(user: Any, *, oob: bool = False, csrf_token: str = "") -> dict[str, Any]:
    """The notice region's context for ``user`` in the active language."""
    found = sanctions.notices_for(user.pk) if getattr(user, "is_authenticated", False) else []
    items = [{"pk": s.pk, "kind": s.kind, "text": sanctions.notice_text(s)} for s in found]
    return {"notices": items, "oob": oob, "csrf_token": csrf_token}


def render(user: Any, *, oob: bool = False) -> str:
    return render_to_string(TEMPLATE, context(user, oob=oob))


def changed(user: Any) -> None:
    """After the commit, the player's open pages show their notices as they are now."""

    def send() -> None:
        rendered = {}
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                rendered[code] = render(user, oob=True)
        page_notice(user.pk, rendered)

    transaction.on_commit(send)


def record(sanction: Sanction, *, lifted: bool = False) -> None:
    """The player's event stream hears of a sanction given or lifted (in the transaction that
    makes it): ``{"type": "moderation", "data": {id, kind, topic, lifted, message}}``, the
    message in the player's own language."""
    if sanction.kind not in sanctions.NOTIFIED:
        return
    with translation.override(ensure_profile(sanction.user).language or settings.LANGUAGE_CODE):
        message = _("A moderator has lifted this.") if lifted else sanctions.notice_text(sanction)
    payload = {
        "id": sanction.pk,
        "kind": sanction.kind,
        "topic": sanction.topic,
        "lifted": lifted,
        "message": message,
    }
    event_log.record(sanction.user_id, "moderation", payload)
