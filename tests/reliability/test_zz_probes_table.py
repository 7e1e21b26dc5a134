"""The probes table and the threat model of docs/reliability.md stay true to the suite.

Runs after every probe of ``tests/reliability`` (files run in name order): the table between the
``probes`` markers must be what this run counted (``tests/reliability/probes.py``); run the whole
directory with ``PROBES_UPDATE=1`` to rewrite it. Every test the threat model names must exist.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from tests.reliability import probes

ROOT = probes.DOC.parent.parent


def _whole_run(config: Any) -> str:
    """Why this run cannot vouch for the table ("" when it can)."""
    if config.option.keyword or getattr(config.option, "deselect", None):
        return "tests were selected with -k or --deselect"
    if (config.option.markexpr or "") not in ("", "not slow"):
        return f"tests were selected by marker ({config.option.markexpr!r})"
    missing = [name for name in probes.probe_files() if name not in probes.TALLIES]
    if missing:
        return f"probe files that did not run: {missing}"
    skipped = [name for name, t in probes.TALLIES.items() if t.skipped]
    if skipped:
        return f"probe files with skipped tests: {skipped}"
    return ""


def test_probes_table_is_what_the_suite_counted(request: pytest.FixtureRequest) -> None:
    why = _whole_run(request.config)
    if why:
        pytest.skip(f"the probes table is checked on a whole run of tests/reliability: {why}")
    counted = probes.table(probes.TALLIES)
    if os.environ.get("PROBES_UPDATE"):
        probes.rewrite(counted)
    assert probes.documented() == counted, (
        "docs/reliability.md's probes table differs from what this run counted; rerun tests/reliability "
        f"with PROBES_UPDATE=1 to rewrite it. Counted:\n{counted}"
    )


def _threat_model() -> str:
    text = probes.DOC.read_text("utf-8")
    return text.split("## Threat model", 1)[1].split("\n## ", 1)[0]


def test_every_test_the_threat_model_names_exists() -> None:
    section = _threat_model()
    named = re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`", section)
    assert len(named) >= 10, "the threat model names too few tests"
    missing = []
    for path, test in named:
        file = ROOT / path
        if not file.exists():
            missing.append(path)
        elif test and not re.search(rf"^def {test}\(", file.read_text("utf-8"), re.M):
            missing.append(f"{path}::{test}")
    assert not missing, f"the threat model names tests that do not exist: {missing}"
    for actor in (
        "Organiser",
        "Scorekeeper by account",
        "Scorekeeper by PIN",
        "Scorekeeper by QR link",
        "Trung Quân",
        "Player",
        "Public display",
        "API client",
    ):
        assert f"**{actor}" in section, f"the threat model has no line for {actor}"
