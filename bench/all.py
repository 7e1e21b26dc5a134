"""Every benchmark of issue 24 in full, in one run, and ``docs/performance.md`` written from it.

``make bench-all`` starts a throwaway PostgreSQL and Redis and runs, from the repository root:

* ``bench/serving.py --layouts --variant orm=<checkout>``: the app against the minimal DRF
  project, both served as ``make run`` serves (granian, pages on WSGI threads, the pool); the
  other ways of serving measured for the choice (Django's ASGI handler for everything, stock and
  the former one-hop handler; granian's WSGI interface alone; nginx in front of it); and the app
  of commit ``ORM_COMMIT`` (the ván path on the ORM, the commit before ``scoring/services/rows.py``
  came back) served the same way, for the A/B that decides rows.py's fate (issue 22 item 6);
* ``bench/corrections.py`` on PostgreSQL and on SQLite: correcting ván 1 of 1,000;
* ``bench/signal_cost.py``: the Trung Quân's signal POST against the minimal authenticated create
  (server CPU per request, target ≤ 1.5 ×) and the SQL statements of one signal;
* ``bench/display.py``: 1,000 audience displays over two app servers (one PostgreSQL, one Redis),
  signals posted on either (``make bench-all`` starts Redis too).
* ``bench/replay_memory.py`` on PostgreSQL and on SQLite: the peak memory of ``manage.py replay``
  of 10,000 ván and of the sitting's ledger and ván exports (CSV, XLSX);
* ``bench/club_book.py`` on PostgreSQL and on SQLite: the club book (issue 23) of 200 members and
  20,000 ván against a raw ``GROUP BY`` of the same postings.

It prints each target with its ratio and met / missed and writes them, with every figure, to
``docs/performance.md`` (the decisions there quote these figures; edit the prose here).
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

ROOT = Path(__file__).resolve().parent.parent
ORM_COMMIT = "7598b3a"  # the last commit whose ván path ran on the ORM (before rows.py came back)
DOC = ROOT / "docs" / "performance.md"


def _bench(argv: list[str], env: dict[str, str] | None = None) -> str:
    print("$ " + " ".join(argv), flush=True)
    done = subprocess.run(
        [sys.executable, *argv], cwd=ROOT, env=env or dict(os.environ), text=True, stdout=subprocess.PIPE
    )
    print(done.stdout, flush=True)
    if done.returncode:
        sys.exit(f"{argv[0]} failed (exit {done.returncode})")
    return done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--reuse",
        type=Path,
        metavar="DIR",
        help="write the page from serving.json, pg.json, lite.json (and signal.json, display.json, replay-pg.json,"
        " replay-lite.json, club-pg.txt, club-lite.txt if there) already in DIR (no run)",
    )
    parser.add_argument("--runs", default="", help="with --reuse: which runs the JSON came from (printed)")
    args = parser.parse_args()
    if args.reuse:
        runs = f" ({args.runs})" if args.runs else ""
        write(
            args.reuse, f"from the JSON of separate runs of the same scripts{runs} (`bench/all.py --reuse`)"
        )
        return
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("bench/all.py needs DATABASE_URL=postgres://… (make bench-all starts one).")
    if not os.environ.get("REDIS_URL"):
        sys.exit(
            "bench/all.py needs REDIS_URL for the display bench's two servers (make bench-all starts one)."
        )
    with tempfile.TemporaryDirectory(prefix="bench-all-") as folder:
        out = Path(folder)
        old = out / "orm"
        old.mkdir()
        archive = subprocess.run(["git", "archive", ORM_COMMIT], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        # Its own dependencies, from its own lock (an older checkout may need packages this one dropped),
        # and this checkout's entry point (an older asgi.py may lack the POST fix of commit 6e90b93).
        subprocess.run(["uv", "sync", "--locked", "--quiet"], cwd=old, check=True)
        shutil.copy(ROOT / "totom_site" / "asgi.py", old / "totom_site" / "asgi.py")
        _bench(
            [
                "bench/serving.py",
                "--layouts",
                "--variant",
                f"orm={old}",
                "--json",
                str(out / "serving.json"),
            ]
        )
        _bench(["bench/corrections.py", "--json", str(out / "pg.json")])
        _bench(["bench/corrections.py", "--json", str(out / "lite.json")], {**os.environ, "DATABASE_URL": ""})
        _bench(["bench/signal_cost.py", "--json", str(out / "signal.json")])
        _bench(["bench/display.py", "--json", str(out / "display.json")])
        _bench(["bench/replay_memory.py", "--json", str(out / "replay-pg.json")])
        _bench(
            ["bench/replay_memory.py", "--json", str(out / "replay-lite.json")],
            {**os.environ, "DATABASE_URL": ""},
        )
        for name, env in (("club-pg.txt", None), ("club-lite.txt", {**os.environ, "DATABASE_URL": ""})):
            (out / name).write_text(_bench(["bench/club_book.py"], env))
        write(out, "by `make bench-all` (`bench/all.py`)")


def write(folder: Path, how: str) -> None:
    serving = json.loads((folder / "serving.json").read_text())
    corrections = [json.loads((folder / name).read_text()) for name in ("pg.json", "lite.json")]
    replays = [
        json.loads((folder / name).read_text())
        for name in ("replay-pg.json", "replay-lite.json")
        if (folder / name).exists()
    ]
    found = folder / "display.json"
    display = json.loads(found.read_text()) if found.exists() else None
    found = folder / "signal.json"
    signal = json.loads(found.read_text()) if found.exists() else None
    books = [
        (folder / name).read_text() for name in ("club-pg.txt", "club-lite.txt") if (folder / name).exists()
    ]
    DOC.write_text(render(serving, corrections, how, replays, display, books, signal))
    print(f"wrote {DOC.relative_to(ROOT)}")


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
    signal: dict | None = None,
) -> str:
    replays = replays or []
    books = books or []
    ab = serving.get("ab", [])
    corrections_out = "\n".join(line for c in corrections for line in c["lines"])
    replays_out = "\n".join(line for r in replays for line in r["lines"])
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
        *(signal["targets"] if signal else []),
        *(display["targets"] if display else []),
        *_replay_targets(replays),
        *_book_targets(books),
    ]
    lines = [
        "# Performance",
        "",
        f"Written {how} on {dt.date.today().isoformat()}: {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f} when it ended (the machine is shared: the ratios, measured in "
        "the same run with the endpoints interleaved, are what count). Each benchmark also runs in `make test` "
        "in a seconds-long mode (`tests/reliability/test_benchmarks.py`), figures printed, none judged.",
        "",
        "## Targets (issue 24)",
        "",
        "| target | value | |",
        "|---|---|---|",
        *(f"| {t['target']} | {t['value']} | {'met' if t['met'] else '**missed**'} |" for t in targets),
        "",
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
        "to the end (CSV streamed as its rows are read; XLSX written row by row to a temporary file).",
        "",
        "```",
        replays_out.strip() or "(not run)",
        "```",
        "",
        *_signal_section(signal),
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
        "## Targets missed on this machine, and why (see the table above for this run's figures)",
        "",
        "* **The calculator page**: its cước chips and the rule set's table of cước that cannot go together",
        "  are rendered once per language, rule set (by its fingerprint) and choice and kept in Django's cache",
        "  (`{% cache %}` in `templates/scoring/calculator.html`); the rest is rendered on every request, and most",
        "  of its server CPU is Django's template engine, the rule-set list (one query) and the hand-over of the",
        "  serving layout (compare the `@granian-wsgi` calculator row). The reference read view renders no",
        "  template. Closing the gap means two servers behind a proxy (see Serving), a whole page kept in the",
        "  cache, or another template engine: the reference may be the wrong one for a page.",
        "* **Ván entry p99 with 50 scorekeepers** is measured with 50 connections posting without a pause, a",
        "  closed loop: each request queues behind the others, so the mean latency is 50 ÷ the requests a",
        "  second. The reference's own one-row create, at 50 connections in the same run, has a p99 near",
        "  250 ms (table above): at 0.5 × its throughput, the other ván target, the ván's p99 is about twice",
        "  that. Both targets hold together only if the ván is about as fast as that one-row insert. Real",
        "  scorekeepers post a ván a minute each.",
        "* **The display at 1,000 displays**: every signal is written to each open display by the server",
        "  process holding it (the server CPU per delivery is in the display section); with 1,000 displays on",
        "  two cores a signal's fan-out takes about 100 ms of CPU, which the signal POST and the later displays",
        "  wait for. More cores, more server processes, or an SSE fan-out proxy (Pushpin, GRIP) as",
        "  `docs/scaling.md` sizes, not code in the request.",
        "",
    ]
    return "\n".join(lines)


def _signal_section(signal: dict | None) -> list[str]:
    if signal is None:
        return ["## A signal's cost (`bench/signal_cost.py`)", "", "Not run.", ""]
    return [
        "## A signal's cost (`bench/signal_cost.py`)",
        "",
        "The Trung Quân's signal POST (token, idempotency key; a table per connection, no display open)",
        "against the reference's minimal authenticated create, both served as `make run` serves the app,",
        "interleaved; the statements of one signal counted in process on the same database.",
        "",
        "```",
        *signal["lines"],
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
