"""The engine is pure Python: importing it never loads Django."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import scoring.engine

ROOT = Path(__file__).resolve().parents[2]


def _engine_modules() -> list[str]:
    names = ["scoring.engine"]
    for info in pkgutil.walk_packages(scoring.engine.__path__, prefix="scoring.engine."):
        names.append(info.name)
    return names


def test_importing_the_engine_loads_no_django():
    modules = _engine_modules()
    assert {
        "scoring.engine.games",
        "scoring.engine.points",
        "scoring.engine.rules",
        "scoring.engine.cuoc",
    } <= set(modules)
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m == 'django' or m.startswith('django'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
