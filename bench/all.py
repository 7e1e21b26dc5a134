"""Every benchmark in one run: issue 32's targets in one table, met / missed, and
``docs/performance.md`` written from it.

``make bench-all`` starts a throwaway PostgreSQL and Redis and runs, from the repository root:

* ``bench/serving.py --layouts --variant orm=<checkout>``: the app against the minimal DRF
  project (its read view, its token-authenticated create, its page: a template with the calculator's
  form controls and table rows), both served as ``make run`` serves; the other ways of serving
  measured for the choice; and the app of commit ``ORM_COMMIT`` served the same way (the A/B of
  ``scoring/services/rows.py``, issue 22 item 6). ``--no-variants`` leaves the last two out;
* ``bench/openloop.py``: ván sent at fixed Poisson arrival rates, latency from each ván's scheduled
  time; the target's 100 a second, then the highest rate this machine sustains;
* ``bench/signal_cost.py`` and ``bench/display.py`` **if this checkout has them** (each run only
  when its file is there; a slot says "not measured" otherwise): a signal's cost against the
  minimal create, and the display fan-out (1,000 displays over two app servers);
* ``bench/corrections.py``, ``bench/replay_memory.py`` and ``bench/club_book.py``, on PostgreSQL
  and on SQLite (issue 24's and 23's targets).

Every script writes ``--json FILE`` with ``"targets": [{"target", "value", "met"}, …]`` (and
``"lines"``); ``bench/signal_cost.py`` may add ``"signal_server_cpu_ms"`` (a signal POST's app
CPU), which the season's sizing uses. The sizing (``docs/scaling.md``'s arithmetic, :func:`sizing`)
is computed from this run's figures: the ván's app CPU from the open-loop run at 100 a second (the
serving run's when that step did not keep up), the
pages' from the scoreboard's, the signal's from ``bench/signal_cost.py``.

It prints issue 32's targets, each met / missed with its figure, then writes them and every
other figure to ``docs/performance.md`` (the decisions there quote these figures; edit the prose
here). ``--quick`` runs each script in its seconds-long mode and prints the table only (no page
written, nothing judged: a smoke run).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from serving import TARGETS as SERVING_TARGETS  # bench/ is the script's own folder

ROOT = Path(__file__).resolve().parent.parent
ORM_COMMIT = "7598b3a"  # the last commit whose ván path ran on the ORM (before rows.py came back)
DOC = ROOT / "docs" / "performance.md"


#: The other lanes' benchmarks: run only when this checkout has them (name, script, its JSON).
OPTIONAL = (("signal_cost", "bench/signal_cost.py"), ("display", "bench/display.py"))


def _bench(argv: list[str], env: dict[str, str] | None = None, *, required: bool = True) -> str:
    print("$ " + " ".join(argv), flush=True)
    done = subprocess.run(
        [sys.executable, *argv], cwd=ROOT, env=env or dict(os.environ), text=True, stdout=subprocess.PIPE
    )
    print(done.stdout, flush=True)
    if done.returncode:
        if required:
            sys.exit(f"{argv[0]} failed (exit {done.returncode})")
        print(f"{argv[0]} failed (exit {done.returncode}): its targets count as missed", flush=True)
    return done.stdout


def _optional(name: str, script: str, out: Path, quick: list[str]) -> None:
    """Run another lane's benchmark if this checkout has it; a failed run leaves no JSON (missed)."""
    if not (ROOT / script).exists():
        print(f"({script} is not in this checkout: its targets are not measured)", flush=True)
        return
    _bench([script, *quick, "--json", str(out / f"{name}.json")], required=False)
    if not (out / f"{name}.json").exists():
        (out / f"{name}.failed").write_text(script)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--reuse",
        type=Path,
        metavar="DIR",
        help="write the page from serving.json (and openloop.json, signal_cost.json, display.json, pg.json, lite.json, replay-pg.json,"
        " replay-lite.json, club-pg.txt, club-lite.txt if there) already in DIR (no run)",
    )
    parser.add_argument("--runs", default="", help="with --reuse: which runs the JSON came from (printed)")
    parser.add_argument(
        "--no-variants",
        action="store_true",
        help="serving.py without the other layouts and the ORM checkout (faster; issue 32's targets unchanged)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="every script seconds long; the table printed, no page written"
    )
    parser.add_argument(
        "--save", type=Path, metavar="DIR", help="also copy every script's JSON here (for --reuse)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DOC,
        metavar="FILE",
        help="where the page is written (docs/performance.md)",
    )
    args = parser.parse_args()
    if args.reuse:
        runs = f" ({args.runs})" if args.runs else ""
        write(
            args.reuse,
            f"from the JSON of separate runs of the same scripts{runs} (`bench/all.py --reuse`)",
            args.out,
        )
        return
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("bench/all.py needs DATABASE_URL=postgres://… (make bench-all starts one).")
    if not os.environ.get("REDIS_URL"):
        sys.exit(
            "bench/all.py needs REDIS_URL for the display bench's two servers (make bench-all starts one)."
        )
    quick = ["--quick"] if args.quick else []
    with tempfile.TemporaryDirectory(prefix="bench-all-") as folder:
        out = Path(folder)
        variants: list[str] = []
        if not (args.no_variants or args.quick):
            old = out / "orm"
            old.mkdir()
            archive = subprocess.run(
                ["git", "archive", ORM_COMMIT], cwd=ROOT, capture_output=True, check=True
            )
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
            # Its own dependencies, from its own lock (an older checkout may need packages this one
            # dropped), and this checkout's entry point (an older asgi.py may lack the POST fix of 6e90b93).
            subprocess.run(["uv", "sync", "--locked", "--quiet"], cwd=old, check=True)
            shutil.copy(ROOT / "totom_site" / "asgi.py", old / "totom_site" / "asgi.py")
            variants = ["--layouts", "--variant", f"orm={old}"]
        try:
            _bench(["bench/serving.py", *quick, *variants, "--json", str(out / "serving.json")])
            _bench(["bench/openloop.py", *quick, "--json", str(out / "openloop.json")])
            for name, script in OPTIONAL:
                _optional(name, script, out, quick)
            if args.quick:
                print_targets(issue32(out))
                return
            _bench(["bench/corrections.py", "--json", str(out / "pg.json")])
            _bench(
                ["bench/corrections.py", "--json", str(out / "lite.json")], {**os.environ, "DATABASE_URL": ""}
            )
            _bench(["bench/replay_memory.py", "--json", str(out / "replay-pg.json")])
            _bench(
                ["bench/replay_memory.py", "--json", str(out / "replay-lite.json")],
                {**os.environ, "DATABASE_URL": ""},
            )
            for name, env in (("club-pg.txt", None), ("club-lite.txt", {**os.environ, "DATABASE_URL": ""})):
                (out / name).write_text(_bench(["bench/club_book.py"], env))
        finally:  # what ran is kept even when a later script fails (for --reuse)
            if args.save:
                args.save.mkdir(parents=True, exist_ok=True)
                for found in out.iterdir():
                    if found.is_file():
                        shutil.copy(found, args.save / found.name)
        write(out, "by `make bench-all` (`bench/all.py`)", args.out)


def _load(folder: Path, name: str) -> dict | None:
    found = folder / name
    return json.loads(found.read_text()) if found.exists() else None


# -- issue 32's targets -------------------------------------------------------------------------------

#: The season (docs/scaling.md): 5,000 tables at a ván a minute, 10 displays a table.
SEASON = {
    "van": 5000 / 60,  # ván a second
    "signals": 5000 / 60 * 20,  # 20 signals a ván (the Trung Quân's calls at a festival table)
    # The scoreboard is pushed (tournaments/board.py: each new board published once to Pushpin, from
    # the Celery worker that made it): a person watching opens its page, not a reload every 30 s.
    "pages": 50_000 / 600,  # every display's person opening a board page every 10 minutes
    "connects": 50_000 / 600,  # each display (re)connecting every 10 minutes through Pushpin
    "checks": 50_000 / 600,  # each board page asking every 10 minutes, in case a push was lost
}
UTILISATION = 0.6  # head-room for the start of a round
CORES_TARGET = 12


def _loads(season: dict, van_ms: float | None, signal_ms: float | None, page_ms: float | None) -> list:
    """Each of the season's kinds of app work: (what, a second, app CPU ms of one)."""
    return [
        ("ván", season["van"], van_ms),
        ("signals", season["signals"], signal_ms),
        ("board pages opened (their boards then pushed by Pushpin)", season["pages"], page_ms),
        ("display (re)connections, answered once then held by Pushpin", season["connects"], page_ms),
        ("board pages' check every 10 minutes, in case a push was lost", season["checks"], page_ms),
    ]


def _app_cores(season: dict, van_ms: float, signal_ms: float, page_ms: float) -> float:
    """The app cores a season needs at :data:`UTILISATION`."""
    busy = sum(rate * ms for _, rate, ms in _loads(season, van_ms, signal_ms, page_ms)) / 1000
    return busy / UTILISATION


def sizing(van_ms: float | None, signal_ms: float | None, page_ms: float | None) -> dict:
    """The Tết season's app cores from per-request app CPU (ms), displays held by Pushpin (the app
    answers a display's connection once, at a page's cost, and none of its deliveries)."""
    rows = []
    total = 0.0
    known = True
    for what, rate, ms in _loads(SEASON, van_ms, signal_ms, page_ms):
        if ms is None:
            known = False
            rows.append(f"{what}: {rate:,.0f}/s × (not measured)")
            continue
        cores = rate * ms / 1000
        total += cores
        rows.append(f"{what}: {rate:,.0f}/s × {ms:.2f} ms = {cores:.2f} cores")
    need = total / UTILISATION
    rows.append(
        f"total {total:.1f} cores busy; at {UTILISATION:.0%} utilisation {need:.1f} app cores"
        + ("" if known else " (a figure is missing: not judged)")
    )
    if known:  # what reaches the target outside the app's code (docs/scaling.md)
        rows.append(_levers(van_ms, signal_ms, page_ms))  # type: ignore[arg-type]
    return {
        "lines": rows,
        "cores": round(need, 1) if known else None,
        "target": {
            "target": f"the Tết season (5,000 tables, 50,000 displays through Pushpin) ≤ {CORES_TARGET} app cores",
            "value": f"{need:.1f} cores" if known else "not measured (no signal cost in this run)",
            "met": known and need <= CORES_TARGET,
        },
    }


def _levers(van_ms: float, signal_ms: float, page_ms: float) -> str:
    """The season's app cores with what the model leaves out (docs/scaling.md): the pages reloaded
    every 30 s as if the board were not pushed (the sizing before tournaments/board.py), and half
    the signals a ván."""
    reloads = {**SEASON, "pages": 50_000 / 30}
    half = {**SEASON, "signals": SEASON["signals"] / 2}
    return (
        f"were the boards reloaded every 30 s {_app_cores(reloads, van_ms, signal_ms, page_ms):.1f} app cores, "
        f"with 10 signals a ván {_app_cores(half, van_ms, signal_ms, page_ms):.1f}"
    )


def issue32(folder: Path) -> dict:
    """Issue 32's targets from the JSON of one run (each script's, or a slot when it did not run)."""
    serving = _load(folder, "serving.json") or {"targets": []}
    openloop = _load(folder, "openloop.json")
    by_key = {t.get("key"): t for t in serving["targets"]}
    rows = [by_key[k] for k in ("calc", "bare", "van") if k in by_key]
    if openloop and openloop["targets"]:
        rows += openloop["targets"]
    else:
        rows.append(
            {
                "target": "ván at 100/s open-loop: p99 < 150 ms, 0 errors",
                "value": "not measured",
                "met": False,
            }
        )
    for name, script in OPTIONAL:
        found = _load(folder, f"{name}.json")
        if found:
            rows += found["targets"]
        else:
            why = "failed" if (folder / f"{name}.failed").exists() else "not in this checkout"
            rows.append({"target": f"`{script}`'s targets", "value": f"not measured ({why})", "met": False})
    signal = _load(folder, "signal_cost.json") or {}
    cpu = serving.get("cpu_ms", {})
    # The ván's app CPU from the open-loop run at 100 a second when that step kept up (no error: a
    # saturated step's CPU includes ván the client gave up on); else from the serving run's ván.
    van_ms = cpu.get("van", {}).get("server")
    if openloop:
        at = [s for s in openloop["steps"] if s["rate"] == 100 and s["answered"] and not s["errors"]]
        van_ms = at[0]["server_cpu_ms_per_van"] if at else van_ms
    page_ms = cpu.get("board", {}).get("server")
    season = sizing(van_ms, signal.get("signal_server_cpu_ms"), page_ms)
    rows.append(season["target"])
    extra = []
    if openloop:
        extra.append(
            f"highest ván rate sustained open-loop{' (searched)' if openloop.get('searched') else ''}: "
            f"{openloop['highest']:.0f}/s (p99 < 150 ms, 0 errors)"
        )
    return {"rows": rows, "sizing": season["lines"], "extra": extra}


def print_targets(found: dict) -> None:
    print("\nIssue 32's targets, this run:")
    print("| target | figure | |")
    print("|---|---|---|")
    for t in found["rows"]:
        print(f"| {t['target']} | {t['value']} | {'met' if t['met'] else 'missed'} |")
    for line in found["extra"]:
        print(line)
    print("Tết season sizing: " + "; ".join(found["sizing"]))


def write(folder: Path, how: str, page: Path = DOC) -> None:
    summary = issue32(folder)
    print_targets(summary)
    serving = json.loads((folder / "serving.json").read_text())
    corrections = [
        json.loads((folder / name).read_text())
        for name in ("pg.json", "lite.json")
        if (folder / name).exists()
    ]
    replays = [
        json.loads((folder / name).read_text())
        for name in ("replay-pg.json", "replay-lite.json")
        if (folder / name).exists()
    ]
    found = folder / "display.json"
    display = json.loads(found.read_text()) if found.exists() else None
    books = [
        (folder / name).read_text() for name in ("club-pg.txt", "club-lite.txt") if (folder / name).exists()
    ]
    page.write_text(
        render(serving, corrections, how, replays, display, books, summary, _load(folder, "openloop.json"))
    )
    print(f"wrote {page.resolve().relative_to(ROOT) if page.resolve().is_relative_to(ROOT) else page}")


def _replay_targets(replays: list[dict]) -> list[dict]:
    out = []
    for r in replays:
        runs = [("manage.py replay", r["replay_peak_mb"])]
        runs += [(f"export {what}", e["peak_mb"]) for what, e in r["exports"].items()]
        out += [
            {
                "target": f"{what} of {r['van']:,} ván < 200 MB ({r['database']})",
                "value": f"{mb:.0f} MB",
                "met": r["van"] >= 10_000 and mb < 200,
            }
            for what, mb in runs
        ]
    return out


#: What bench/club_book.py prints: its database, its size and the ratio to the raw GROUP BY.
BOOK_DATABASE = re.compile(r"bench/club_book.py on (\S+)")
BOOK_SIZE = re.compile(r"\(b\) the club book: +([\d.]+) ms \(([\d,]+) ván")
BOOK_RATIO = re.compile(r"book / raw GROUP BY = ([\d.]+)")


def _book_targets(books: list[str]) -> list[dict]:
    out = []
    for text in books:
        database, size, ratio = BOOK_DATABASE.search(text), BOOK_SIZE.search(text), BOOK_RATIO.search(text)
        if not (database and size and ratio):
            continue
        out.append(
            {
                "target": f"club book of {size.group(2)} ván ≤ 2.0 × a raw GROUP BY, < 1 s ({database.group(1)}; issue 23)",
                "value": f"{ratio.group(1)} ({size.group(1)} ms)",
                "met": float(ratio.group(1)) <= 2.0 and float(size.group(1)) < 1000,
            }
        )
    return out


def _book_section(books: list[str]) -> list[str]:
    return [
        "## The club book (`bench/club_book.py`, issue 23)",
        "",
        "200 members, 20,000 ván in 200 canh over a lunar year; the reference is the plainest `GROUP BY member`",
        "sum of the same postings, measured in the same run, in turn with the book.",
        "",
        "```",
        *(line for text in books for line in text.strip().splitlines()),
        "```",
        "",
    ]


def render(
    serving: dict,
    corrections: list[dict],
    how: str,
    replays: list[dict] | None = None,
    display: dict | None = None,
    books: list[str] | None = None,
    found: dict | None = None,
    openloop: dict | None = None,
) -> str:
    replays = replays or []
    books = books or []
    ab = serving.get("ab", [])
    corrections_out = "\n".join(line for c in corrections for line in c["lines"])
    replays_out = "\n".join(line for r in replays for line in r["lines"])
    mine = {t["target"] for t in (found or {}).get("rows", [])}
    targets = [
        *serving["targets"],
        *(
            {
                "target": f"correcting ván 1 of {c['van']:,} < 1 s ({c['database']})",
                "value": f"{c['correct_s']} s",
                "met": c["met"],
            }
            for c in corrections
        ),
        *(display["targets"] if display else []),
        *_replay_targets(replays),
        *_book_targets(books),
    ]
    targets = [t for t in targets if t["target"] not in mine]  # each target once: issue 32's table first
    lines = [
        "# Performance",
        "",
        f"Written {how} on {dt.date.today().isoformat()}: {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f} when it ended (the machine is shared: the ratios, measured in "
        "the same run with the endpoints interleaved, are what count). Each benchmark also runs in `make test` "
        "in a seconds-long mode (`tests/reliability/test_benchmarks.py`), figures printed, none judged.",
        "",
        "## Targets (issue 32), this run",
        "",
        "| target | value | |",
        "|---|---|---|",
        *(
            f"| {t['target']} | {t['value']} | {'met' if t['met'] else '**missed**'} |"
            for t in (found or {}).get("rows", [])
        ),
        "",
        *(f"* {line}" for line in (found or {}).get("extra", [])),
        "* The season's sizing from this run's figures (`docs/scaling.md` has the arithmetic and its",
        "  assumptions): " + "; ".join((found or {}).get("sizing", [])) + ".",
        "",
        "## Other targets (issues 23 and 24)",
        "",
        "| target | value | |",
        "|---|---|---|",
        *(f"| {t['target']} | {t['value']} | {'met' if t['met'] else '**missed**'} |" for t in targets),
        "",
        *_openloop_section(openloop),
        "## Serving (`bench/serving.py`)",
        "",
        f"Run: `bench/serving.py {serving.get('run', '')}`.",
        "",
        "wrk (C, one process, its CPU reported per request) against one server process each, PostgreSQL 15.",
        "Rows without a suffix: the app as `make run` serves it (`totom_site/serve.py`: granian, pages and the",
        "API on Django's WSGI handler in 4 threads, the display's event streams on Django's ASGI handler, psycopg's",
        "pool); the reference project (`bench/reference/`) served the same way. Suffixed rows: the app served",
        "another way (`@asgi-stock`: Django's ASGI handler for every request; `@asgi-one-hop`: the custom",
        "handler `totom_site/asgi.py` carried until issue 24; `@granian-wsgi`: granian's WSGI interface, no event",
        "streams possible; `@nginx+granian-wsgi`: nginx in front of it) or another checkout (`@orm`: commit",
        f"`{ORM_COMMIT}`, the ván path on the ORM instead of `scoring/services/rows.py`, served the same way).",
        "",
        *serving["table"],
        "",
        *(f"* {line}" for line in ab),
        "",
        "## Corrections (`bench/corrections.py`)",
        "",
        "```",
        corrections_out.strip(),
        "```",
        "",
        "## Long sittings in memory (`bench/replay_memory.py`)",
        "",
        "Peak resident memory (`ru_maxrss`) of a child process each: `manage.py replay` of the whole",
        "sitting (rolled back), then each export of the same sitting saved, rendered by its view and read",
        "to the end (CSV streamed as its rows are read; a big sitting's XLSX rendered by the bulk lane's task,",
        "row by row to a temporary file, which the child runs itself before the view serves the stored file).",
        "",
        "```",
        replays_out.strip() or "(not run)",
        "```",
        "",
        *_display_section(display),
        *(_book_section(books) if books else []),
        "## Decisions",
        "",
        "* **Serving**: one granian process on one address, Django's WSGI handler for pages and the API (a",
        "  thread pool, a2wsgi), Django's ASGI handler for the display's event streams only. Compare the",
        "  unsuffixed app rows with `@asgi-stock` / `@asgi-one-hop` (Django's ASGI handler for everything) and",
        "  with `@granian-wsgi` (the WSGI server alone, which cannot stream the display): the split keeps one",
        "  address and one process for `make run`. Its cost is the hand-over of each request from the event",
        "  loop to a WSGI thread (a2wsgi): on the cheapest endpoints the `@granian-wsgi` rows answer more for",
        "  less server CPU. Getting those figures with the display would take two servers behind a proxy",
        "  (`@nginx+granian-wsgi` for pages and the API, granian's ASGI interface for the streams) in `make",
        "  run` too; the targets met on the split do not need it.",
        "* **The one-hop ASGI handler** (issue 22 item 6) is gone: with pages on WSGI threads it serves no",
        "  request; its gain over Django's stock ASGI handler is `@asgi-one-hop` over `@asgi-stock` above.",
        "* **rows.py** (issue 22 item 6) is kept on the ván path only (the token and sitting reads, the lock,",
        "  the idempotency key, the ván, its transaction and postings, the state snapshot, and the after-commit",
        "  lookups of the event, the club and live webhooks): its worth is the `A/B van` line above (this",
        "  checkout against the same code on the ORM, served the same way); the rule is ≥ 15 %.",
        "* **Corrections** write in bulk: reversals, re-posted transactions and postings, streaks and hội rows",
        "  in a fixed number of statements however many ván follow (`test_a_correction_re_posts_the_later_van_in_bulk`):",
        "  the reversals are two `INSERT … SELECT` (transactions, then postings negated), the re-posting two",
        "  `bulk_create`. PostgreSQL's deferred check that a sitting's pool and gà pot stay ≥ 0 sums each account",
        "  once per commit instead of once per posting (migration 0015; it was quadratic: 10 s and more of",
        "  the commit for ván 1 of 1,000).",
        "* **Long sittings stream**: the replay keeps only each ván's points, streak and id (each ván kept",
        "  the sitting row it was written under, with the engine's state on it: gigabytes at 10,000 ván); the",
        "  ván lists no longer load a copy of the sitting per ván; the ledger and ván exports read the rows",
        "  a chunk at a time and stream them (CSV) or write them to disk as they come (XLSX). The PDF report",
        "  is still built whole (WeasyPrint lays out the document at once).",
        "",
        "## Reading the targets (see the tables above for this run's figures)",
        "",
        "* **The calculator page** is compared with a page (issue 32): the reference's `GET /page` renders,",
        "  through Django's template engine, a template with as many form controls (inputs, selects and their",
        "  options, buttons) and table rows as the calculator page has, counted on the calculator as served in",
        "  the same run (`bench/reference/page.py`; the counts are printed by `bench/serving.py`). Its",
        "  cước chips and the rule set's table of cước that cannot go together are kept in Django's cache",
        "  (`{% cache %}` in `templates/scoring/calculator.html`); the rest is rendered on every request.",
        "* **Ván latency is open-loop** (`bench/openloop.py`): ván arrive on a schedule, as a festival's",
        "  scorekeepers post (a ván a minute each; 100 a second ≈ 6,000 tables), and each is timed from when",
        "  it was due. The closed-loop p99 of `bench/serving.py` (50 connections posting without a pause:",
        "  latency = 50 ÷ throughput) is only printed. An open-loop p99 is the server's queue: it stays low",
        "  while the arrival rate is below what the app and PostgreSQL can answer on the cores they get, and",
        "  grows without bound above it (the steps above the highest rate sustained). On this 2-core machine",
        "  the client, the app and PostgreSQL share the two cores: the app CPU a ván (`app ms`) times the",
        "  rate says how much of a core the app needs, and the rest of the latency is waiting for a core.",
        *_van_ratio(serving),
        "* **Signals and the display** are `bench/signal_cost.py`'s and `bench/display.py`'s targets when this",
        '  checkout has them (a row says "not measured" otherwise); the display fan-out off the app (Pushpin)',
        "  is what `docs/scaling.md` sizes.",
        "* **The season's app cores** are computed from this run's per-request CPU (`bench/all.py`,",
        "  `sizing`): the ván's from the open-loop run at 100 a second, a page's from the scoreboard's, a",
        "  signal's from `bench/signal_cost.py`; `docs/scaling.md` has the load and the arithmetic.",
        "",
    ]
    return "\n".join(lines)


def _van_ratio(serving: dict) -> list[str]:
    """Why the ván's ratio is what it is, from this run's CPU figures."""
    cpu = serving.get("cpu_ms", {})
    van, create = cpu.get("van", {}), cpu.get("create", {})
    if not van.get("server") or not create.get("server"):
        return []
    least = next(ratio for _, name, _, ratio in SERVING_TARGETS if name == "van")
    need = create["server"] / least
    return [
        "* **Ván entry against the minimal create**: the served rate follows the app process's CPU (one",
        "  process, one interpreter lock; PostgreSQL works on the other core). A ván costs the app",
        f"  {van['server']:.2f} ms and PostgreSQL {van['postgres']:.2f} ms; the create {create['server']:.2f} ms and",
        f"  {create['postgres']:.2f} ms. {least} × needs at most {need:.2f} ms of app CPU a ván: the token, the sitting's",
        "  permission and hourly quota, the lock, the idempotency key, the engine's settlement, the ván, its",
        "  ledger transaction and postings (the database's ledger checks), the state snapshot, the key's full",
        f"  answer and the after-commit claims, in {need - create['server']:.2f} ms more than one row's insert with a",
        "  token and a key. `bench/van_profile.py` lists the ván's statements and where its Python time goes:",
        "  it is spread over those steps (the largest, posting the ledger, is about a sixth of it).",
    ]


def _openloop_section(openloop: dict | None) -> list[str]:
    if openloop is None:
        return ["## Ván latency, open-loop (`bench/openloop.py`)", "", "Not run.", ""]
    return [
        "## Ván latency, open-loop (`bench/openloop.py`)",
        "",
        f"Run: `bench/openloop.py {openloop.get('run', '')}`. Ván sent at a fixed Poisson arrival rate by one",
        "asyncio client (a keep-alive connection per scorekeeper, each an organiser of the village), each",
        "timed from its **scheduled** send time (waiting for a free scorekeeper counts); `svc p99` from its",
        "actual send. `app ms` / `pg ms`: the app server's and PostgreSQL's CPU per ván answered.",
        "",
        "```",
        *openloop["lines"],
        "```",
        "",
    ]


def _display_section(display: dict | None) -> list[str]:
    if display is None:
        return ["## Display fan-out (`bench/display.py`)", "", "Not run.", ""]
    return [
        "## Display fan-out (`bench/display.py`)",
        "",
        f"{display['displays']:,} audience displays of {display['tables']} table(s) over {display['servers']} app",
        "servers (each as `make run` serves the app) on one PostgreSQL and one Redis; the displays in one",
        "asyncio client process, the signals posted from another, on each server in turn. `docs/scaling.md`",
        "sizes a season from these figures.",
        "",
        "```",
        *display["lines"],
        "```",
        "",
    ]


if __name__ == "__main__":
    main()
