from __future__ import annotations

import re

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from ginsite.settings import envbool, envint, envlist, envstr


@pytest.mark.parametrize("raw", ["1", "true", "TRUE", "yes", "on", " On "])
def test_it_reads_true(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("GIN_TEST_FLAG", raw)
    assert envbool("GIN_TEST_FLAG", False) is True


@pytest.mark.parametrize("raw", ["0", "false", "no", "off", "OFF"])
def test_it_reads_false(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    monkeypatch.setenv("GIN_TEST_FLAG", raw)
    assert envbool("GIN_TEST_FLAG", True) is False


@pytest.mark.parametrize("raw", [None, ""])
def test_it_falls_back_to_the_default_when_unset_or_empty(
    monkeypatch: pytest.MonkeyPatch, raw: str | None
) -> None:
    if raw is None:
        monkeypatch.delenv("GIN_TEST_VAR", raising=False)
    else:
        monkeypatch.setenv("GIN_TEST_VAR", raw)
    assert envbool("GIN_TEST_VAR", True) is True
    assert envint("GIN_TEST_VAR", 7) == 7
    assert envstr("GIN_TEST_VAR", "x") == "x"
    assert envlist("GIN_TEST_VAR", ["a"]) == ["a"]


@pytest.mark.parametrize("raw", ["maybe", "2", "yes please"])
def test_it_rejects_a_bad_bool_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv("GIN_TEST_FLAG", raw)
    with pytest.raises(ImproperlyConfigured, match="GIN_TEST_FLAG"):
        envbool("GIN_TEST_FLAG", False)


def test_it_reads_an_int(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIN_TEST_NUM", "-42")
    assert envint("GIN_TEST_NUM", 0) == -42


@pytest.mark.parametrize("raw", ["ten", "1.5", "0x10"])
def test_it_rejects_a_bad_int_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv("GIN_TEST_NUM", raw)
    with pytest.raises(ImproperlyConfigured, match="GIN_TEST_NUM"):
        envint("GIN_TEST_NUM", 0)


def test_it_splits_a_list_and_drops_blanks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIN_TEST_LIST", " a.example , b.example,, ")
    assert envlist("GIN_TEST_LIST", []) == ["a.example", "b.example"]


@pytest.mark.django_db
def test_it_renders_the_home_page_with_vendored_htmx(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<script src="/static/vendor/htmx/htmx.min.js"' in html
    assert '<script src="/static/vendor/htmx/ws.js"' in html
    assert "X-CSRFToken" in html
    srcs = re.findall(r"<script[^>]*\bsrc=[\"']([^\"']+)", html)
    assert srcs, "expected script tags"
    external = [src for src in srcs if re.match(r"(https?:)?//", src)]
    assert external == [], f"scripts loaded from outside the site: {external}"


def test_it_serves_the_vendored_htmx_files() -> None:
    from django.contrib.staticfiles import finders

    for path in ("vendor/htmx/htmx.min.js", "vendor/htmx/ws.js", "css/site.css"):
        assert finders.find(path), path
