"""allauth's account adapter (ACCOUNT_ADAPTER), changed where the site's mail needs it.

Every subject names the site in the reader's language. The notice of a changed address goes to
the old address only if it was verified: an address never confirmed may be a stranger's (a
typing slip), and the notice names the new one. A mail the server could not send is logged
(the template, never the address or the link) and the page goes on: a sign-up or a reset must
not fail with a 500 because the mail server is down, and the player can ask again.
"""

from __future__ import annotations

import logging
import smtplib
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.utils.translation import gettext

log = logging.getLogger(__name__)

_CHANGED = "account/email/email_changed"
# Set on the request while an address is confirmed: whether the one it replaces was verified.
_OLD_VERIFIED = "gin_old_address_verified"


class AccountAdapter(DefaultAccountAdapter):
    def format_email_subject(self, subject: str) -> str:
        return f"{gettext('Gin Rummy')}: {subject}"

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        try:
            super().send_mail(template_prefix, email, context)
        except (OSError, smtplib.SMTPException) as error:
            log.error("could not send %s mail: %s", template_prefix.rsplit("/", 1)[-1], error)

    def confirm_email(self, request: HttpRequest, email_address: EmailAddress) -> bool:
        others = EmailAddress.objects.filter(user_id=email_address.user_id)
        old_verified = others.exclude(pk=email_address.pk).filter(verified=True).exists()
        setattr(request, _OLD_VERIFIED, old_verified)
        return super().confirm_email(request, email_address)

    def send_notification_mail(
        self,
        template_prefix: str,
        user: AbstractBaseUser,
        context: dict[str, Any] | None = None,
        email: str | None = None,
    ) -> None:
        if template_prefix == _CHANGED and not getattr(self.request, _OLD_VERIFIED, False):
            return
        super().send_notification_mail(template_prefix, user, context, email)
