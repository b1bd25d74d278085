"""allauth's account adapter (ACCOUNT_ADAPTER), changed where the site's mail needs it.

Every subject names the site in the reader's language. A mail the server could not send is logged
(the template, never the address or the link) and the page goes on: a sign-up or a reset must
not fail with a 500 because the mail server is down, and the player can ask again.
"""

from __future__ import annotations

import logging
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.utils.translation import gettext

log = logging.getLogger(__name__)


class AccountAdapter(DefaultAccountAdapter):
    def format_email_subject(self, subject: str) -> str:
        return f"{gettext('Gin Rummy')}: {subject}"

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        try:
            super().send_mail(template_prefix, email, context)
        except OSError as error:  # a refused connection, TLS, and every smtplib error
            log.error("could not send %s mail: %s", template_prefix.rsplit("/", 1)[-1], error)
