"""The site's German (issue 41): it says "du" to the player, never the formal "Sie"; every entry
of locale/de is translated (none empty, none fuzzy, none left in English), keeps its placeholders
and has both plural forms; and the pages and mails a German player meets on the way in and out,
allauth's among them (whose own German often says "Sie"), say "du" too.

"Sie" is also Bea, a card or a match ("Sie hat gepasst."), so a capital "Sie" may open a
sentence when the verb after it is a single person's ("hat", "kann", "zieht", "könnte"). The
formal address cannot pass that way: it takes the plural's verb ("Sie haben", "Sie können",
"Sie sind") or stands inside a sentence ("Möchten Sie", "geben Sie"); "Ihnen" and a capital
"Ihr..." (formal "your", or Bea's at a sentence's start, which reads the same) never pass.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.core import mail
from django.test import Client

if TYPE_CHECKING:
    from django.contrib.auth.models import User

CATALOG = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES" / "django.po"

FORMAL = re.compile(r"\b(Sie|Ihnen|Ihr|Ihre|Ihrem|Ihren|Ihrer|Ihres)\b")
# Inside a sentence the site writes "du", "dich", "dein" in small letters.
CAPITAL_DU = re.compile(r"\b(Du|Dich|Dir|Dein|Deine|Deinem|Deinen|Deiner|Deines)\b")
# What comes right before a word that opens a sentence (or a quoted name, „Deine Karten“).
OPENS = re.compile(r"(^|[.!?:…]\s+|[„(\"']\s*|\n\s*)$")
# Forms of the plural (or formal) present and past: "haben", "können", "wandern", "sind", "tun".
PLURAL_VERB = re.compile(r"(en|rn|ln)$|^(sind|tun)$")
# German nouns whose plural reads as their singular ("1 Spieler", "2 Spieler").
SAME_PLURAL = ("Spieler",)
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")
# Words an English sentence has and a German one does not.
ENGLISH = re.compile(r"\b(the|you|your|and|with|please|of|is|are)\b")
# Entries that read the same in both languages.
SAME_IN_GERMAN = {
    "Standard",
    "Lobby",
    "Bea",
    "Gin",
    "Gin!",
    "Big Gin",
    "Big Gin!",
    "online",
    "BOT",
    "Live",
    "Apps",
    "Moderation",
    "Moderator",
    "Name",
    "Bea offline",
    "Bea: {what}",
}


def entries(path: Path = CATALOG) -> list[dict]:
    """The catalogue's entries (the header left out): msgctxt, msgid, msgid_plural, the msgstr
    forms as a list, the flags, and the line each starts on."""
    found: list[dict] = []
    entry: dict = {}
    key = ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("#,"):
            entry["flags"] = line[2:].strip()
        elif match := re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d)\])?) (\".*\")$", line):
            key = match.group(1)
            # A new entry starts with its msgctxt or msgid (a blank line may be missing).
            if key in ("msgctxt", "msgid") and "msgid" in entry:
                found.append(entry)
                entry = {}
            entry.setdefault("line", number)
            value = ast.literal_eval(match.group(3))
            if key.startswith("msgstr"):
                entry.setdefault("msgstr", []).append(value)
            else:
                entry[key] = value
        elif line.startswith('"'):
            value = ast.literal_eval(line)
            if key.startswith("msgstr"):
                entry["msgstr"][-1] += value
            else:
                entry[key] += value
        elif not line.strip() and "msgid" in entry:
            found.append(entry)
            entry = {}
    if "msgid" in entry:
        found.append(entry)
    return [e for e in found if e["msgid"]]


def _words(text: str) -> str:
    """What a reader sees of a message: no markup, no code, each placeholder a name."""
    text = re.sub(r"<code>.*?</code>", "X", text)
    text = re.sub(r"<[^>]+>", "", text)
    return PLACEHOLDER.sub("X", text)


def formal(text: str) -> list[str]:
    """Where ``text`` addresses its reader with "Sie" (or writes "Du" inside a sentence)."""
    text = _words(text)
    problems = []
    for match in FORMAL.finditer(text):
        word, before = match.group(1), text[: match.start()]
        after = re.match(r"\s+(\w+)", text[match.end() :])
        shown = text[max(0, match.start() - 30) : match.end() + 30]
        if not OPENS.search(before):
            problems.append(f"formal {word!r} inside a sentence: …{shown}…")
        elif word != "Sie":
            problems.append(f"{word!r} (formal, or Bea's, which reads the same): …{shown}…")
        elif after is None or PLURAL_VERB.search(after.group(1)):
            problems.append(f"'Sie' with a plural verb: …{shown}…")
    for match in CAPITAL_DU.finditer(text):
        if not OPENS.search(text[: match.start()]):
            shown = text[max(0, match.start() - 30) : match.end() + 30]
            problems.append(f"a capital {match.group(1)!r} inside a sentence: …{shown}…")
    return problems


def _where(entry: dict) -> str:
    return f"django.po:{entry['line']} {entry['msgid'][:60]!r}"


def test_it_tells_the_formal_address_from_bea() -> None:
    assert not formal("Runde 2: Du hast gegeben. Sie hat gepasst.")
    assert not formal("Bea ist dran. Pass gut auf: Sie könnte klopfen.")
    assert not formal("Jemand, wahrscheinlich du, hat „Deine Karten“ gelesen; sie zählen.")
    assert formal("Sie haben gewonnen.")
    assert formal("Bitte geben Sie Ihr Passwort ein.")
    assert formal("Möchten Sie weiterspielen?")
    assert formal("Wir danken Ihnen.")
    assert formal("Ihr Zug.")
    assert formal("Das ist Dein Zug.")


def test_it_says_du_in_every_entry() -> None:
    problems = [
        f"{_where(entry)}: {problem}"
        for entry in entries()
        for form in entry["msgstr"]
        for problem in formal(form)
    ]
    assert not problems, "\n".join(problems)


def test_every_entry_is_translated() -> None:
    problems = []
    for entry in entries():
        forms = entry["msgstr"]
        if "fuzzy" in entry.get("flags", ""):
            problems.append(f"{_where(entry)}: fuzzy")
        if not all(forms):
            problems.append(f"{_where(entry)}: empty")
        if forms == [entry["msgid"]] and entry["msgid"] not in SAME_IN_GERMAN:
            problems.append(f"{_where(entry)}: left in English")
        english = [m.group() for form in forms for m in ENGLISH.finditer(_words(form))]
        if english:
            problems.append(f"{_where(entry)}: English words {english}")
    assert not problems, "\n".join(problems)


def test_every_entry_keeps_its_placeholders_and_both_plural_forms() -> None:
    problems = []
    for entry in entries():
        english = [entry["msgid"], entry.get("msgid_plural", entry["msgid"])]
        if "msgid_plural" in entry and len(entry["msgstr"]) != 2:
            problems.append(f"{_where(entry)}: {len(entry['msgstr'])} plural forms, not 2")
        same = len(set(entry["msgstr"])) == 1
        if "msgid_plural" in entry and same and not entry["msgstr"][0].endswith(SAME_PLURAL):
            problems.append(f"{_where(entry)}: the singular and the plural read the same")
        for source, form in zip(english, entry["msgstr"], strict=False):
            if set(PLACEHOLDER.findall(source)) != set(PLACEHOLDER.findall(form)):
                problems.append(f"{_where(entry)}: placeholders of {form!r}")
    assert not problems, "\n".join(problems)


def _seen(html: str) -> str:
    """The words of a page, and of the attributes that carry words to the reader or a script."""
    html = re.sub(r"<script.*?</script>|<style.*?</style>", " ", html, flags=re.S)
    attributes = re.findall(r'\b(?:placeholder|title|aria-label|alt|data-[\w-]+)="([^"]*)"', html)
    return "\n".join([re.sub(r"<[^>]+>", "\n", html), *attributes])


@pytest.mark.django_db
def test_the_pages_and_mails_on_the_way_in_and_out_say_du(alice: User, password: str) -> None:
    """allauth's German says "Sie" in places; none of it may reach a German player."""
    guest = Client(HTTP_ACCEPT_LANGUAGE="de")
    pages = {
        url: guest.get(url, follow=True)
        for url in (
            "/",
            "/accounts/login/",
            "/accounts/signup/",
            "/accounts/password/reset/",
            "/accounts/login/code/",
            "/accounts/password/reset/done/",
            "/accounts/confirm-email/nonsense/",
            "/accounts/password/reset/key/1-nonsense/",
            "/how-to-play/",
            "/lobby/",
        )
    }
    pages["a wrong password"] = guest.post(
        "/accounts/login/", {"login": "alice", "password": "wrong"}
    )
    pages["a sign-up with an address in use"] = guest.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "display_name": "Newcomer",
            "email": "alice@example.com",
            "password1": password,
            "password2": password,
        },
        follow=True,
    )
    pages["a reset"] = Client(HTTP_ACCEPT_LANGUAGE="de").post(
        "/accounts/password/reset/", {"email": "alice@example.com"}, follow=True
    )
    pages["a code"] = Client(HTTP_ACCEPT_LANGUAGE="de").post(
        "/accounts/login/code/", {"email": "alice@example.com"}, follow=True
    )
    player = Client(HTTP_ACCEPT_LANGUAGE="de")
    pages["signing in"] = player.post(
        "/accounts/login/", {"login": "alice", "password": password}, follow=True
    )
    for url in ("/settings/", "/accounts/email/", "/accounts/password/change/"):
        pages[url] = player.get(url, follow=True)
    pages["a wrong old password"] = player.post(
        "/accounts/password/change/",
        {"oldpassword": "wrong", "password1": "x", "password2": "y"},
        follow=True,
    )
    pages["signing out"] = player.post("/accounts/logout/", follow=True)

    problems = []
    for name, page in pages.items():
        html = page.content.decode()
        assert page.status_code == 200, (name, page.status_code)
        assert '<html lang="de"' in html, name
        problems += [f"{name}: {problem}" for problem in formal(_seen(html))]
    # The mails those sent: the address in use, the reset link, the sign-in code.
    assert len(mail.outbox) >= 3, [m.subject for m in mail.outbox]
    for sent in mail.outbox:
        problems += [f"mail {sent.subject!r}: {p}" for p in formal(f"{sent.subject}\n{sent.body}")]
    assert not problems, "\n".join(problems)
