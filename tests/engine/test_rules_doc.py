"""docs/rules.md's generated tables (games, cước, preset values, options) are the engine's own:
``manage.py rules_doc --check`` passes, and a stale table is caught."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from scoring.management.commands.rules_doc import DOC, render


def test_the_rules_reference_is_current() -> None:
    call_command("rules_doc", check=True)


def test_a_stale_table_is_caught() -> None:
    text = DOC.read_text(encoding="utf-8")
    head, block = text.split("<!-- generated:presets -->", 1)
    stale = (
        head
        + "<!-- generated:presets -->"
        + block.replace("| Tôm `tom` | 8 / 1 |", "| Tôm `tom` | 9 / 1 |", 1)
    )
    assert stale != text
    assert render(stale) == text  # regenerating restores the engine's value


def test_every_block_is_present() -> None:
    text = DOC.read_text(encoding="utf-8")
    without = text.replace("<!-- generated:options -->", "", 1)
    with pytest.raises(CommandError, match="options"):
        render(without)
