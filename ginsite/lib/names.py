"""The rules every name a player shows must follow: account display names (``lobby``) and
guests' names at a private table or on one device (``games``). A neutral module, so that
neither app reaches into the other for them.

Two names are one name when they look alike: ``key`` compares them by their confusables
skeleton (Unicode TR39, from ICU's spoof checker) after NFKC, ignoring case, so "аlice" with a
Cyrillic а, a fullwidth "ａlice" and "ALICE" are all "alice". Characters without a visible
glyph (a Hangul filler, a Braille blank, zero-width and other invisible ones) are refused, so
"alice" and "alice" followed by a blank cannot both exist either.

Combining marks are the other way to make a name that looks like another. On Latin, Greek and
Cyrillic letters every accent in use has a precomposed letter, so a mark NFC leaves standing
alone makes no letter of the script ("ali\u0307ce", a dot above the i; Zalgo text) and is
refused, as is a mark of another script ("alice\u05b0", a Hebrew point on an e). A mark that
does compose ("b\u0323ob" is "ḅob") may stay, but the key ignores the marks on such letters:
"ḅob", "Bób" and "bob" are one name, and so are "José" and "Jose". Elsewhere a mark is part of
the letter (Japanese voicing marks, Indic vowel signs, Thai tone marks) and counts.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import icu

MIN_CHARS = 2
MAX_CHARS = 24
# Names nobody may take, nor anything that looks like them: "Bea" is the computer opponent.
RESERVED = frozenset({"bea"})

# A name must contain at least one letter or digit, not only spaces or punctuation.
HAS_WORD_CHAR = re.compile(r"[^\W_]")
_WHITESPACE_RUN = re.compile(r"\s+")

# Blank in every font but not in any Unicode category of "invisible" characters: letters
# (the Hangul fillers) and a symbol (the Braille blank). ICU's Default_Ignorable_Code_Point
# covers the fillers too; these are named so that the rule reads without looking it up.
_BLANK_GLYPHS = frozenset("\u115f\u1160\u2800\u3164\uffa0")
# Every other space is collapsed into this one by ``normalise``.
_SPACE = " "


def normalise(value: str) -> str:
    """The name as it will be stored: NFC, and runs of spaces collapsed to one, so "Al  ice"
    and "Al ice" cannot be two different players who look the same."""
    return _WHITESPACE_RUN.sub(" ", unicodedata.normalize("NFC", value or "")).strip()


def _is_blank(ch: str) -> bool:
    """True for a character with no visible glyph: controls, formats (zero-width spaces...),
    unassigned and private-use code points, separators other than the plain space, default
    ignorables (variation selectors, fillers) and blank glyphs such as the Braille blank."""
    if ch == _SPACE:
        return False
    if unicodedata.category(ch)[0] in "CZ":
        return True
    return ch in _BLANK_GLYPHS or bool(
        icu.Char.hasBinaryProperty(ch, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT)
        or icu.Char.hasBinaryProperty(ch, icu.UProperty.WHITE_SPACE)
    )


# Scripts whose accented letters are precomposed in Unicode (and the script-neutral digits,
# punctuation and generic diacritics): on their letters a combining mark is an accent.
_ACCENTED_SCRIPTS = frozenset(
    {
        icu.UScriptCode.LATIN,
        icu.UScriptCode.GREEK,
        icu.UScriptCode.CYRILLIC,
        icu.UScriptCode.COMMON,
        icu.UScriptCode.INHERITED,
    }
)


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "M"


def _stray_mark(name: str) -> bool:
    """A combining mark that makes no letter: left alone by NFC on a Latin, Greek or Cyrillic
    letter (or a digit, a space), of another script than its letter's, or with no letter."""
    script = None
    for ch in unicodedata.normalize("NFC", name):
        if not _is_mark(ch):
            script = icu.Script.getScript(ch).getScriptCode()
            continue
        if script is None or script in _ACCENTED_SCRIPTS:
            return True
        if not icu.Script.hasScript(ord(ch), script):
            return True
    return False


def _without_accents(text: str) -> str:
    """``text`` (decomposed) without the combining marks on Latin, Greek and Cyrillic letters:
    "b\u0323ob" is "bob", "l\u0338" (how a skeleton spells Ł) is "l"."""
    kept: list[str] = []
    script = None
    for ch in text:
        if not _is_mark(ch):
            script = icu.Script.getScript(ch).getScriptCode()
        elif script is None or script in _ACCENTED_SCRIPTS:
            continue
        kept.append(ch)
    return "".join(kept)


@lru_cache(maxsize=1)
def _spoof_checker() -> icu.SpoofChecker:
    # ICU's checker is safe to share between threads once configured; skeletons need no
    # configuration.
    return icu.SpoofChecker()


def _skeleton(text: str) -> str:
    return str(_spoof_checker().getSkeleton(0, text))


def key(name: str) -> str:
    """What two names that look alike have in common: the TR39 skeleton of the name after
    NFKC, case-folded, and the skeleton again (case folding can make characters the first
    skeleton has not seen, "ß" -> "ss").

    A skeleton keeps case: it makes "I" (capital i) an "l", because the two look alike, but
    leaves a small "i" alone, so "ALICE" would not match "alice". Folding "i" into "l" at the
    end closes that gap; "alice" and "allce" then count as one name, a small price.

    The skeleton is decomposed, so the accents of Latin, Greek and Cyrillic letters stand
    apart from their letters there, and are left out: "Bób" and "bob" are one name."""
    first = _skeleton(unicodedata.normalize("NFKC", name))
    return _without_accents(_skeleton(first.casefold())).replace("i", "l")


_RESERVED_KEYS = frozenset(key(name) for name in RESERVED)


def problem(name: str) -> str | None:
    """What is wrong with a normalised name, as a code (``too_short``, ``too_long``,
    ``invisible``, ``marks``, ``no_letters``, ``reserved``), or None. Each form words it its
    own way."""
    if len(name) < MIN_CHARS:
        return "too_short"
    if len(name) > MAX_CHARS:
        return "too_long"
    # Invisible and blank characters would let two names look identical on screen.
    if any(_is_blank(ch) for ch in name):
        return "invisible"
    if _stray_mark(name):
        return "marks"
    if not HAS_WORD_CHAR.search(name):
        return "no_letters"
    if name.lower() in RESERVED or key(name) in _RESERVED_KEYS:
        return "reserved"
    return None
