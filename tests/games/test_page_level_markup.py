"""A page-level instruction belongs to a full page, never to a region htmx swaps or a socket
pushes (issue 23, defect 1): htmx parses what it swaps with scripting off, so a
``<noscript><meta http-equiv="refresh">`` there came alive and reloaded the table every turn."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from django.conf import settings

from tests.seeds import deal

from .conftest import move, start, url

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client

pytestmark = pytest.mark.django_db

PAGE_LEVEL = re.compile(r"<(noscript|meta|script|link|title|style|base)\b", re.IGNORECASE)
PARTIAL = re.compile(r"{%\s*partialdef\s+(\w+).*?%}(.*?){%\s*endpartialdef", re.DOTALL)


def test_no_region_of_any_template_holds_page_level_markup():
    found = []
    for template in Path(settings.BASE_DIR, "templates").rglob("*.html"):
        for name, body in PARTIAL.findall(template.read_text()):
            found += [f"{template.name}#{name}: <{tag}" for tag in PAGE_LEVEL.findall(body)]
    assert found == []


def test_it_keeps_the_refresh_without_javascript_in_the_head_while_bea_thinks(
    alice: User, alice_client: Client
):
    match = start(alice)
    deal(match)
    page = alice_client.get(url(match, "table")).content.decode()
    assert "http-equiv" not in page  # the player's turn: nothing to wait for
    move(alice_client, match, "pass")
    page = alice_client.get(url(match, "table")).content.decode()
    head, body = page.split("</head>")
    assert '<noscript><meta http-equiv="refresh" content="2"></noscript>' in head
    assert "http-equiv" not in body
    assert "Reload to see her move" in body


def test_the_answer_that_hands_bea_the_turn_holds_no_page_level_markup(
    alice: User, alice_client: Client
):
    match = start(alice)
    deal(match)
    answer = move(alice_client, match, "pass", htmx=True).content.decode()
    assert 'id="status"' in answer and "Bea is thinking" in answer
    assert PAGE_LEVEL.findall(answer) == []
