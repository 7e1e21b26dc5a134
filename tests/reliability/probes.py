"""The probes of the running app and their table in ``docs/reliability.md``, kept current by the suite.

A *probe* is an attack or odd input tried against the app: a request of the authorization matrix, a
password guessed at the admin's door, a formula planted in a name, a write to a finished event… A
probe module is a file ``tests/reliability/test_probe_*.py`` (or one that sets ``PROBE_AREA``); its
area is ``PROBE_AREA`` or the first paragraph of its docstring.

Each attempt is counted as it runs: a test that takes the :func:`probe` fixture counts one attempt
per :meth:`Probe.check` (and asserts none failed at its end); any other test of a probe module
counts as one attempt, failed if the test failed. ``test_zz_probes_table.py`` runs after them,
builds the table from what was counted in this run, and compares it with the one between the
``probes`` markers of ``docs/reliability.md`` (``PROBES_UPDATE=1`` rewrites it): the document cannot
drift from what the suite does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
DOC = HERE.parent.parent / "docs" / "reliability.md"
START, END = "<!-- probes:start -->", "<!-- probes:end -->"


@dataclass
class Tally:
    """What one probe module tried in this run."""

    area: str
    attempts: int = 0
    failures: int = 0
    #: Test items that ran (passed or failed), to tell a whole run from a partial one.
    items: set[str] = field(default_factory=set)
    #: Test items skipped (a run with a skipped probe does not describe the suite).
    skipped: int = 0


#: Module file name → its tally, filled while the suite runs.
TALLIES: dict[str, Tally] = {}


def is_probe_module(module: ModuleType | None) -> bool:
    if module is None:
        return False
    name = Path(getattr(module, "__file__", "") or "").name
    return name.startswith("test_probe_") or hasattr(module, "PROBE_AREA")


def area_of(module: ModuleType) -> str:
    declared = getattr(module, "PROBE_AREA", None)
    if declared:
        return str(declared)
    paragraph = (module.__doc__ or "").strip().split("\n\n", 1)[0]
    first = " ".join(line.strip() for line in paragraph.splitlines()).rstrip(".")
    return first or Path(module.__file__ or "").stem


def tally_for(module: ModuleType) -> Tally:
    name = Path(module.__file__ or "").name
    if name not in TALLIES:
        TALLIES[name] = Tally(area_of(module))
    return TALLIES[name]


class Probe:
    """Counts the attempts of one test; :meth:`done` fails the test if any attempt failed."""

    def __init__(self, tally: Tally) -> None:
        self.tally = tally
        self.wrong: list[str] = []
        self.used = False

    def check(self, ok: bool, what: str) -> bool:
        """One attempt: ``ok`` is whether the app held; ``what`` names it (shown when it did not)."""
        self.used = True
        self.tally.attempts += 1
        if not ok:
            self.tally.failures += 1
            self.wrong.append(what)
        return ok

    def done(self) -> None:
        assert not self.wrong, f"{len(self.wrong)} probe(s) got through:\n" + "\n".join(self.wrong)


def probe_files() -> list[str]:
    """Every probe module on disk (by name, without importing them)."""
    names = []
    for path in sorted(HERE.glob("test_*.py")):
        if path.name.startswith("test_probe_") or re.search(
            r"^PROBE_AREA\s*=", path.read_text("utf-8"), re.M
        ):
            names.append(path.name)
    return names


def table(tallies: dict[str, Tally]) -> str:
    lines = ["| Area | Probes (test file) | Attempts | Got through |", "|---|---|---|---|"]
    for name in sorted(tallies):
        t = tallies[name]
        lines.append(f"| {t.area} | `{name}` | {t.attempts:,} | {t.failures} |")
    return "\n".join(lines)


def documented() -> str:
    text = DOC.read_text("utf-8")
    if START not in text or END not in text:
        return ""
    return text.split(START, 1)[1].split(END, 1)[0].strip()


def rewrite(new_table: str) -> None:
    text = DOC.read_text("utf-8")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{START}\n{new_table}\n{END}{tail}", "utf-8")
