"""The hand-written SQL has one home per app: ``games.lookups`` and ``lobby.lookups`` (beside
``ginsite.lib.rows``, which builds it). The import contract in pyproject.toml keeps
``ginsite.lib.rows`` to them; this keeps raw cursors to them too, so that a reader looking for the
SQL a request
runs finds it in one module and every other module reads as ORM or as those functions."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SQL_HOMES = {"games/lookups.py", "lobby/lookups.py", "ginsite/lib/rows.py"}


def _cursor_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in {"cursor", "raw"}
    ]


def test_only_the_lookups_modules_open_a_cursor() -> None:
    found = {}
    for app in ("games", "lobby", "ginsite"):
        for path in (ROOT / app).rglob("*.py"):
            relative = path.relative_to(ROOT).as_posix()
            if "migrations" in path.parts or relative in SQL_HOMES:
                continue
            if lines := _cursor_calls(path):
                found[relative] = lines
    assert found == {}


def test_the_check_sees_a_cursor(tmp_path: Path) -> None:
    module = tmp_path / "stray.py"
    module.write_text(
        "from django.db import connection\n"
        "def f():\n"
        "    with connection.cursor() as c:\n"
        "        c.execute('SELECT 1')\n"
    )
    assert _cursor_calls(module) == [3]
