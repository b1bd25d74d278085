"""The one parser of a number a client sends: a page or version in a form, a query string, a
socket's query or frame, a path or field of the API.

A client's number is ASCII digits and nothing else: no sign, no blank, no ``_``, no exponent,
no hex, and not one of the other characters Python calls digits. ``str.isdigit()`` says yes to
"²" and "①", which ``int()`` then refuses with a ValueError (a 500, a socket closed with
1011: issue 39), and ``int()`` itself reads "١٢" (Arabic-Indic), " 12" and "1_2" as 12; so
neither is used on what a client sent. Every number is bounded too: beyond ``LARGEST`` no
count of this site reaches, and a database column would overflow.

Callers turn ``None`` into their door's answer (a 400 or 422 with a message, a default page,
a socket's close code); ``from_text`` is the same parser for the API's query and path.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from annotated_types import Ge, Le
from django import forms
from pydantic import BeforeValidator

# The largest number a client may send: a PostgreSQL integer column holds 2**31 - 1, and no
# version, page, id or count of this site comes near it.
LARGEST = 2**31 - 1
_DIGITS = re.compile(r"[0-9]{1,10}")


def parse(raw: Any, *, low: int = 0, high: int = LARGEST) -> int | None:
    """``raw`` as an int from ``low`` to ``high``, or None: a str of ASCII digits, or an int
    (a JSON number already decoded, never a bool); anything else is None."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str) and _DIGITS.fullmatch(raw):
        value = int(raw)
    else:
        return None
    return value if low <= value <= high else None


def from_text(raw: Any) -> Any:
    """A query's or path's number for pydantic: ASCII digits only (pydantic reads " 1" and
    "1_0" as numbers); the bounds are the field's own (``Field(ge=..., le=...)``)."""
    if isinstance(raw, str):
        value = parse(raw)
        if value is None:
            raise ValueError("must be a whole number written in the digits 0-9")
        return value
    return raw


# A number in an API path, which arrives as text; the schema says its bounds. (A query's numbers
# are read by ``ginsite.lib.apikit.Params``, whose fields state bounds of their own.)
PathInt = Annotated[int, Ge(0), Le(LARGEST), BeforeValidator(from_text)]


class WholeNumberField(forms.IntegerField):
    """A form's whole number, read by ``parse`` (Django's IntegerField reads "١٢" and " 12"
    as 12); its bounds are ``min_value`` and ``max_value`` as usual, LARGEST at most."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        number = parse(value if isinstance(value, int) else str(value), low=-LARGEST)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number
