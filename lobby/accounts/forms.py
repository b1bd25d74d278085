"""allauth's forms for mail sent to an address (ACCOUNT_FORMS): a password reset and a sign-in
code go only to an address its account has verified.

An address nobody confirmed may belong to someone else (a typing slip at sign-up), and whoever
reads that mailbox must not be able to take the account. To anyone asking, an unverified
address looks exactly like one without an account: the page says the same, and no mail goes.
"""

from __future__ import annotations

from allauth.account import forms as allauth_forms

from lobby.accounts.emails import verified_owners


class ResetPasswordForm(allauth_forms.ResetPasswordForm):
    def clean_email(self) -> str:
        email = super().clean_email()
        self.users = verified_owners(email, self.users)
        return email


class RequestLoginCodeForm(allauth_forms.RequestLoginCodeForm):
    def clean_email(self) -> str:
        email = super().clean_email()
        user = getattr(self, "_user", None)
        if email and user is not None and not verified_owners(email, [user]):
            self._user = None
        return email
