"""Forms for accounts: the display name at sign-up and in Settings, and the preferred language."""

from __future__ import annotations

from typing import Any

from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.core import context, ratelimit
from django import forms
from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ginsite.lib import names
from lobby.models import Profile, display_name_clash

_PROBLEMS = {
    "too_short": _("A display name needs at least %(min)d characters."),
    "too_long": _("A display name can have at most %(max)d characters."),
    "invisible": _("A display name cannot contain invisible, blank or control characters."),
    "marks": _(
        "A display name cannot contain a mark that makes no letter with the one before it "
        "(such as a dot above an i)."
    ),
    "no_letters": _("A display name needs at least one letter or digit."),
    "reserved": _("“%(name)s” is reserved. Please choose another name."),
}


def clean_display_name(value: str, *, user_id: int | None = None) -> str:
    """The display name as it will be stored, or a ValidationError saying what is wrong.

    Runs of spaces collapse to one, so "Al  ice" and "Al ice" cannot be two different players
    who look the same, and a name that looks like another player's (``names.key``) is refused
    as taken. `user_id` is the user keeping their own name (Settings).
    """
    name = names.normalise(value)
    code = names.problem(name)
    if code is not None:
        raise forms.ValidationError(
            _PROBLEMS[code],
            code=code,
            params={"min": names.MIN_CHARS, "max": names.MAX_CHARS, "name": name},
        )
    other = display_name_clash(name, exclude_user_id=user_id)
    if other is not None and other.casefold() == name.casefold():
        raise forms.ValidationError(
            _("“%(name)s” is already taken. Please choose another name."),
            code="taken",
            params={"name": name},
        )
    if other is not None:
        raise forms.ValidationError(
            _(
                "“%(name)s” looks like “%(other)s”, the name of another player. "
                "Please choose another name."
            ),
            code="looks_taken",
            params={"name": name, "other": other},
        )
    return name


def _display_name_field() -> forms.CharField:
    # No min_length/max_length here: clean_display_name counts after collapsing spaces and
    # gives our own messages. The maxlength attribute still helps browsers and phones.
    return forms.CharField(
        label=_("Display name"),
        help_text=_("What other players see: %(min)d to %(max)d characters.")
        % {"min": names.MIN_CHARS, "max": names.MAX_CHARS},
        widget=forms.TextInput(
            attrs={"maxlength": names.MAX_CHARS, "autocomplete": "nickname"},
        ),
    )


class SignupForm(AllauthSignupForm):
    """allauth's sign-up form (username, e-mail address, password twice) plus the display name,
    and at most SIGNUP_LIMIT_PER_ADDRESS new accounts per client address and window."""

    field_order = ["username", "display_name", "email", "password1", "password2"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"] = _display_name_field()
        self.fields["email"].help_text = _(
            "For the link that verifies it, and a new password if you forget yours. "
            "Other players never see it."
        )
        self.order_fields(self.field_order)

    def clean_display_name(self) -> str:
        return clean_display_name(self.cleaned_data["display_name"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        # Only a sign-up that would make an account counts (allauth's own "signup" limit counts
        # every attempt): a typing slip costs nothing, a fourth account within the hour waits.
        if not self.errors and not ratelimit.consume(context.request, action="new_account"):
            raise forms.ValidationError(
                _("Too many new accounts were made from your network recently. Try again later."),
                code="signup_limit",
            )
        return cleaned

    def save(self, request: HttpRequest) -> Any:
        user = super().save(request)
        if user is None:
            return user
        profile = user.profile
        profile.display_name = self.cleaned_data["display_name"]
        try:
            with transaction.atomic():
                profile.save(update_fields=["display_name"])
        except IntegrityError:
            # Someone took the same name between validation and now. The account is made
            # already, so keep the name derived from the username; Settings can change it.
            profile.refresh_from_db()
        return user


class SettingsForm(forms.ModelForm):
    """Display name and preferred language, changed together on the Settings page."""

    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("As my browser says"))] + list(settings.LANGUAGES),
    )

    class Meta:
        model = Profile
        fields = ["display_name", "language", "four_colour_deck", "sound_on", "plays_by_bot"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"] = _display_name_field()

    def clean_display_name(self) -> str:
        return clean_display_name(self.cleaned_data["display_name"], user_id=self.instance.user_id)
