"""Forms of the table: starting a match against Bea, and one move."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.ai import LEVELS
from games.engine import is_card
from games.services import TARGETS
from ginsite.lib import numbers

PRESET_CHOICES = [
    (
        "standard",
        _("Standard: undercut 25, the deal alternates; game bonus 100 and 25 per hand won."),
    ),
    (
        "classic",
        _("Classic: undercut 10, Big Gin 31, the winner deals; game bonus 100, no boxes."),
    ),
    ("simple", _("Simple: undercut 25, the deal alternates, no bonuses at the end.")),
]

LEVEL_CHOICES = [
    ("easy", _("Easy: plays what is in front of her")),
    ("medium", _("Medium: watches what you pick up")),
    ("hard", _("Hard: counts the cards")),
    ("expert", _("Expert: her very best")),
]
assert tuple(code for code, _label in LEVEL_CHOICES) == LEVELS


def _points(target: int) -> str:
    return gettext("%(points)s points") % {"points": target}


# Translated when shown, not when this module is imported (in whatever language that was).
points_label = lazy(_points, str)
TARGET_CHOICES = [(t, points_label(t)) for t in TARGETS]


class RulesForm(forms.Form):
    """The rules a new match is played by: a preset and a target. Every way of starting a
    match (against Bea, at a private table, on one device) asks the same two questions."""

    preset = forms.ChoiceField(
        label=_("Rules"), choices=PRESET_CHOICES, initial="standard", widget=forms.RadioSelect
    )
    target = forms.TypedChoiceField(
        label=_("Play to"),
        choices=TARGET_CHOICES,
        coerce=int,
        initial=100,
    )


class NewMatchForm(RulesForm):
    # Radio buttons: a select cuts the longer descriptions off on a phone.
    level = forms.ChoiceField(
        label=_("Bea's level"), choices=LEVEL_CHOICES, initial="medium", widget=forms.RadioSelect
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)


# A move as the table's buttons post it: ``move`` names the button, ``card`` the selected card.
MOVES: dict[str, dict[str, Any]] = {
    # The page's own seed for the hand being shuffled (docs/fairness.md); without one, none.
    "seed": {"type": "seed"},
    "take_upcard": {"type": "take_upcard"},
    "pass": {"type": "pass"},
    "draw_stock": {"type": "draw", "from": "stock"},
    "draw_discard": {"type": "draw", "from": "discard"},
    "discard": {"type": "discard"},
    "knock": {"type": "knock"},
    "gin": {"type": "gin"},
    "big_gin": {"type": "big_gin"},
    "next_hand": {"type": "next_hand"},
}
NEEDS_CARD = {"discard", "knock", "gin"}


class MoveForm(forms.Form):
    move = forms.ChoiceField(
        choices=[(m, m) for m in MOVES],
        error_messages={
            "required": _("Which move? The request named none."),
            "invalid_choice": _("There is no move called “%(value)s”."),
        },
    )
    card = forms.CharField(required=False, max_length=2, strip=True)
    # The page's own random seed (docs/fairness.md): for the hand being shuffled, or in an
    # older match with this seat's first move of a hand; the engine checks its form.
    seed = forms.CharField(required=False, max_length=64, strip=True)
    version = numbers.WholeNumberField(
        min_value=0,
        max_value=numbers.LARGEST,
        error_messages={
            "required": _("Every move must say which version of the table it was made on."),
            "invalid": _("The version of the table must be a whole number."),
            "min_value": _("The version of the table must be a whole number."),
            "max_value": _("The version of the table must be a whole number."),
        },
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        move = data.get("move")
        code = (data.get("card") or "").upper()
        if move in NEEDS_CARD:
            if not code:
                raise forms.ValidationError(_("Select a card first, then press the button."))
            if not is_card(code):
                raise forms.ValidationError(_("“%(card)s” is not a card.") % {"card": code[:2]})
        data["card"] = code
        return data

    def action(self) -> dict[str, Any]:
        """The engine's action for a valid form."""
        move = self.cleaned_data["move"]
        action = dict(MOVES[move])
        if move in NEEDS_CARD:
            action["card"] = self.cleaned_data["card"]
        if self.cleaned_data.get("seed"):
            action["seed"] = self.cleaned_data["seed"]
        return action

    def first_error(self) -> str:
        for errors in self.errors.values():
            for error in errors:
                return str(error)
        return str(_("That request was not understood."))
