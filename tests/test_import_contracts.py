"""The layers of docs/architecture.md hold: ``lint-imports`` keeps every contract of
``pyproject.toml`` (engine pure, ledger below events, services below views, edges apart, the
engine's public API, plain SQL on the ván path only), and the engine's list of forbidden neighbours names every part of ``scoring``."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def test_every_import_contract_is_kept() -> None:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "6 kept, 0 broken" in done.stdout


def test_the_engine_may_import_nothing_else_of_scoring() -> None:
    """A new module or package of ``scoring`` is added to the engine's forbidden list, or the
    engine could import it unnoticed."""
    children = {
        f"scoring.{p.stem if p.suffix == '.py' else p.name}"
        for p in (ROOT / "scoring").iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p.is_dir() and (p / "__init__.py").exists())
    }
    forbidden = set(_contracts()["engine-pure"]["forbidden_modules"])
    assert children - {"scoring.engine"} <= forbidden
    assert {"django", "tournaments", "totom_site"} <= forbidden


def test_the_ledger_never_imports_the_events_app() -> None:
    """The acceptance of issue 22: no line of ``scoring`` imports ``tournaments``."""
    lines = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in (ROOT / "scoring").rglob("*.py")
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if "tournaments" in line and ("import " in line or "get_model(" in line)
    ]
    assert lines == []


def test_plain_sql_is_imported_by_the_van_path_modules_the_contract_names_and_no_other() -> None:
    """``scoring.services.rows`` (hand-written SQL) is confined to the ván path: the contract's
    list of importers is exactly who imports it (a module leaving the path leaves the list)."""
    allowed = set(_contracts()["rows-van-path"]["allowed_importers"])
    importers = {
        ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for top in ("scoring", "tournaments", "totom_site")
        for p in (ROOT / top).rglob("*.py")
        if "from scoring.services import rows" in p.read_text(encoding="utf-8")
        or "scoring.services.rows import" in p.read_text(encoding="utf-8")
    }
    assert importers == allowed
