"""Reports and moderation in real Chromium, in English and in German: alice reports bob from
his page, bob reports alice from the table (beside her name, the match attached); mo, a
moderator, finds the reports queued, reads the evidence and warns bob, whose open lobby shows
the warning at once until he acknowledges it. Screenshots of each step in test-artifacts/."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import BrowserContext, Page, expect

from lobby.models import ensure_profile
from lobby.moderation.models import Report
from tests.browser.conftest import phone_contexts, sign_in_to_lobby
from tests.games.live_helpers import lobby_match
from tests.moderation.helpers import make_moderator

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LIVE_MS = 5_000
DESK = {"width": 1200, "height": 900}

WORDS = {
    "en": {
        "report_bob": "Report bob",
        "rude": "Rude messages",
        "stalling": "Stalling (letting the clock run)",
        "send": "Send the report",
        "thanks": "Thank you. A moderator will look at your report.",
        "attached": "The match you played is attached.",
        "report": "Report",
        "warning": "Warning",
        "do_it": "Do it",
        "done": "Done: Warning.",
        "warned": "A moderator has warned you about: Rude messages.",
        "understand": "I understand",
        "moderation": "Moderation",
    },
    "de": {
        "report_bob": "bob melden",
        "rude": "Unhöfliche Nachrichten",
        "stalling": "Verzögern (die Zeit ablaufen lassen)",
        "send": "Meldung senden",
        "thanks": "Danke. Ein Moderator wird sich deine Meldung ansehen.",
        "attached": "Die Partie, die ihr gespielt habt, ist angehängt.",
        "report": "Melden",
        "warning": "Verwarnung",
        "do_it": "Ausführen",
        "done": "Erledigt: Verwarnung.",
        "warned": "Ein Moderator hat dich verwarnt wegen: Unhöfliche Nachrichten.",
        "understand": "Verstanden",
        "moderation": "Moderation",
    },
}


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"moderation-{name}.png"), full_page=True)


def _report(page: Page, words: dict[str, str], reason: str, note: str, language: str) -> None:
    page.get_by_label(words[reason]).check()
    page.locator("#report-note").fill(note)
    page.get_by_role("button", name=words["send"]).click()
    expect(page.locator(".report-thanks")).to_have_text(words["thanks"], timeout=LIVE_MS)


@pytest.mark.parametrize("language", ["en", "de"])
def test_players_report_and_a_moderator_reviews_and_warns(
    base: str,
    browser: object,
    django_user_model: type[User],
    alice: User,
    bob: User,
    password: str,
    language: str,
) -> None:
    words = WORDS[language]
    make_moderator(django_user_model, "mo")
    for name in ("alice", "bob", "mo"):
        profile = ensure_profile(User.objects.get(username=name))
        profile.language = language
        profile.save()
    match = lobby_match(alice, bob)

    with phone_contexts(browser, 2) as (alice_ctx, bob_ctx):  # type: ignore[arg-type]
        _alice_reports_from_the_page(alice_ctx, base, password, words, language)
        bob_lobby = _bob_reports_from_the_table(bob_ctx, base, password, words, language, match)
        # A moderator works at a desk: a wide window.
        mo_ctx = browser.new_context(viewport=DESK)  # type: ignore[attr-defined]
        try:
            _mo_reviews_and_warns(mo_ctx, base, password, words, language)
        finally:
            mo_ctx.close()

        # bob's open lobby shows the warning at once, until he acknowledges it.
        notice = bob_lobby.locator("#moderation-notice")
        expect(notice).to_contain_text(words["warned"], timeout=LIVE_MS)
        _shot(bob_lobby, f"{language}-4-warned")
        notice.get_by_role("button", name=words["understand"]).click()
        expect(notice).to_be_hidden(timeout=LIVE_MS)
        bob_lobby.reload()
        expect(bob_lobby.locator(".moderation-item")).to_have_count(0)

    assert Report.objects.filter(status="closed", reported__username="bob").count() == 1
    assert Report.objects.filter(status="open", reported__username="alice").count() == 1


def _alice_reports_from_the_page(
    context: BrowserContext, base: str, password: str, words: dict[str, str], language: str
) -> None:
    page = sign_in_to_lobby(context, base, "alice", password)
    page.goto(base + "/players/bob/")
    page.get_by_role("link", name=words["report_bob"]).click()
    page.wait_for_url(base + "/players/bob/report/")
    _shot(page, f"{language}-1-report-form")
    _report(page, words, "rude", "bob called me names after the second hand", language)
    _shot(page, f"{language}-1-thanked")


def _bob_reports_from_the_table(
    context: BrowserContext,
    base: str,
    password: str,
    words: dict[str, str],
    language: str,
    match: object,
) -> Page:
    lobby = sign_in_to_lobby(context, base, "bob", password)
    table = context.new_page()
    table.goto(f"{base}/games/{match.public_id}/")  # type: ignore[attr-defined]
    # On a phone the link stands by the opponent's (alice's) cards while they are shown, else
    # beside her name in the score strip: one of them in view, and nothing offers bob to
    # report himself.
    link = table.locator(".seat-link:visible")
    expect(link).to_have_count(1)
    expect(link).to_have_text(words["report"])
    expect(table.locator("#scores .score.mine .seat-link")).to_have_count(0)
    _shot(table, f"{language}-2-table-link")
    with context.expect_page() as opened:
        link.click()
    form = opened.value
    form.wait_for_load_state()
    expect(form.locator(".report-page")).to_contain_text(words["attached"])
    _report(form, words, "stalling", "", language)
    _shot(form, f"{language}-2-thanked-from-table")
    lobby.bring_to_front()
    return lobby


def _mo_reviews_and_warns(
    context: BrowserContext, base: str, password: str, words: dict[str, str], language: str
) -> None:
    page = sign_in_to_lobby(context, base, "mo", password)
    page.get_by_role("link", name=words["moderation"]).click()
    page.wait_for_url(base + "/moderation/")
    groups = page.locator("#open-reports .report-group")
    expect(groups).to_have_count(2)
    _shot(page, f"{language}-3-queue")
    groups.filter(has_text="bob").get_by_role("link").click()
    page.wait_for_url(base + "/moderation/players/bob/")
    expect(page.locator("#reports")).to_contain_text("bob called me names after the second hand")
    expect(page.locator('[data-between="alice"] tbody tr')).to_have_count(1)
    page.locator("#act-kind").select_option("warning")
    page.locator("#act-topic").select_option("rude_messages")
    page.locator("#act-reason").fill("Rude to alice in chat, first time")
    page.get_by_role("button", name=words["do_it"]).click()
    expect(page.locator(".messages")).to_contain_text(words["done"], timeout=LIVE_MS)
    expect(page.locator("#log")).to_contain_text("Rude to alice in chat, first time")
    _shot(page, f"{language}-3-acted")
