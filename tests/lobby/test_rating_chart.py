"""The profile shows each preset's rating, and a chart of its history (SVG, no script)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from lobby.ratings.chart import HEIGHT, WIDTH, chart
from lobby.ratings.models import RatingChange

from .rating_helpers import rated_history

pytestmark = pytest.mark.django_db


def _signed_in(user) -> Client:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(user)
    return client


def test_a_new_player_sees_provisional_ratings_and_no_chart(alice, bob):
    page = _signed_in(bob).get("/players/alice/").content.decode()
    assert page.count("1500?") == 3
    assert "<svg" not in page


def test_the_profile_draws_the_history_of_each_preset_played(alice, bob):
    rated_history(alice, bob, [1, 1, 0, 1])
    page = _signed_in(bob).get("/players/alice/").content.decode()
    assert page.count('class="rating-chart"') == 1  # classic and simple: nothing to draw
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg
    assert "Standard rating over time" in svg
    assert "Rated matches played" in svg and ">Rating<" in svg
    now = round(RatingChange.objects.filter(user=alice).last().after)
    assert f"From 1500 to {now} over 4 rated matches" in svg
    assert "<script" not in page.split("<svg", 1)[1].split("</svg>", 1)[0]


def test_the_chart_speaks_german_with_coordinates_svg_reads(alice, bob):
    rated_history(alice, bob, [1, 0, 1])
    client = _signed_in(bob)
    page = client.get("/players/alice/", headers={"accept-language": "de"}).content.decode()
    assert "Standard-Wertung im Verlauf" in page and "Gewertete Partien gespielt" in page
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    # A German page writes 12,5 for 12.5; in SVG that would be two coordinates.
    coordinates = re.findall(r' (?:x|y|x1|x2|y1|y2|cx|cy)="([^"]*)"', svg)
    assert coordinates and all(re.fullmatch(r"-?\d+(\.\d+)?", c) for c in coordinates)


def test_every_point_lies_inside_the_drawing(alice, bob):
    rated_history(alice, bob, [1] * 12 + [0] * 3)
    with translation.override("en"):
        drawn = chart("standard", list(RatingChange.objects.filter(user=alice)))
    assert drawn is not None
    points = [tuple(map(float, p.split(","))) for p in drawn.points.split()]
    assert len(points) == 16
    assert all(0 < x <= WIDTH and 0 < y < HEIGHT for x, y in points)
    # Higher ratings are drawn higher: the twelfth win is above the start.
    assert points[12][1] < points[0][1]
    ticks = [int(value) for _, value in drawn.y_ticks]
    assert 3 <= len(ticks) <= 5 and ticks == sorted(ticks)
    lowest = min(c.after for c in RatingChange.objects.filter(user=alice))
    assert ticks[0] <= min(1500, lowest) and ticks[-1] >= max(
        c.after for c in RatingChange.objects.all()
    )
    assert "over 15 rated matches" in drawn.desc
