"""The memory of a long replay (not a test): ``manage.py replay`` of ``--van`` (10,000) ván.

Builds one sitting's replay request (Tổ Tôm, gom mode, every hội and streak exercised), feeds it to
``manage.py replay`` (the app's own services: every ván recorded, posted and checked against the
engine's replay; ``--save``, so the sitting is kept) in a child process, and reads the child's peak
resident memory (``wait4``'s ``ru_maxrss``). Then exports that sitting: the ledger and the ván as
CSV and XLSX, each in a child process that renders the download as the site
serves it (the response's content streamed to a sink), its peak memory read the same way. A big
sitting's XLSX is rendered on the bulk lane (the view answers 202 and a progress page): the child
then does that lane's task itself (``bulk.render_report``) and serves the stored file, so its peak
is the lane worker's work and the download's together. Target
(issue 24 item 3): 10,000 ván under 200 MB, for the replay and for each export.

On PostgreSQL (``DATABASE_URL=postgres://…``: a throwaway database next to it) or, without it, on a
throwaway SQLite file. ``--quick`` (50 ván) is the run ``make test`` makes
(``tests/reliability/test_benchmarks.py``): it runs and prints, nothing is judged.
``--json FILE`` writes the figures for ``bench/all.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # benchdb closes Django's connections: the settings must import
sys.path.insert(0, str(ROOT / "bench"))
TARGET_MB = 200
PLAYERS = ["An", "Bình", "Chi", "Dũng", "Em"]
RULES = {"preset": "luat-2005"}
EXPORTS = ("ledger.csv", "ledger.xlsx", "van.csv", "van.xlsx")

#: Renders one export of sitting argv[1] (argv[2]: e.g. "ledger.csv") as the site's view answers
#: it, and reads its content to the end without keeping it (a client downloading it).
EXPORT_CHILD = """
import sys, django
django.setup()
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from scoring.reports import views
pk, what = int(sys.argv[1]), sys.argv[2]
kind, fmt = what.split(".")
User = get_user_model()
reader = User.objects.filter(username="bench").first() or User.objects.create_superuser("bench", "", "x")
request = RequestFactory().get("/")
request.user = reader
view = views.ledger_export if kind == "ledger" else views.van_export
response = view(request, pk=pk, fmt=fmt)
lane = response.status_code == 202
if lane:  # a big sitting's XLSX is the bulk lane's: its task's work here, then the stored file served
    from scoring.models import ReportFile
    from scoring.reports.tasks import render_report
    render_report(ReportFile.objects.order_by("-pk").values_list("pk", flat=True)[0])
    response = view(request, pk=pk, fmt=fmt)
assert response.status_code == 200, response.status_code
size = 0
for chunk in response.streaming_content if response.streaming else [response.content]:
    size += len(chunk)
print(size, response.streaming, lane)
"""


def history(n: int) -> list[dict[str, object]]:
    """``n`` ván: wins with cước, a Bình win breaking An's streak, now and then a draw."""
    out: list[dict[str, object]] = []
    for i in range(n):
        if i % 7 == 6:
            out.append({"result": "hoa"})
        elif i % 3:
            out.append({"winner": "An", "cuoc": ["tom"]})
        else:
            out.append({"winner": "Bình", "cuoc": ["leo"]})
    return out


def child(argv: list[str], env: dict[str, str], stdin: str | None = None) -> tuple[str, float, float]:
    """Run ``argv`` (python) to its end; answer its stdout, its peak RSS in MB and its wall time."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *argv],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    out, err = proc.communicate(stdin)
    took = time.perf_counter() - started
    # Popen reaped it with wait4, keeping its own peak (see _popen_wait_with_rusage).
    if proc.returncode:
        sys.exit(f"{' '.join(argv)} failed (exit {proc.returncode}):\n{out[-2000:]}\n{err[-3000:]}")
    return out, peak_mb(proc.pid), took


_PEAKS: dict[int, float] = {}


def _popen_wait_with_rusage() -> None:
    """Make Popen reap children with wait4, keeping each one's own peak RSS (ru_maxrss, in KB)."""
    original = subprocess.Popen._try_wait  # type: ignore[attr-defined]

    def _try_wait(self: subprocess.Popen[str], wait_flags: int) -> tuple[int, int]:
        try:
            pid, status, usage = os.wait4(self.pid, wait_flags)
        except ChildProcessError:
            return original(self, wait_flags)
        if pid:
            _PEAKS[pid] = usage.ru_maxrss / 1024
        return pid, status

    subprocess.Popen._try_wait = _try_wait  # type: ignore[attr-defined]


def peak_mb(pid: int) -> float:
    return _PEAKS[pid]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--van", type=int, default=None, help="ván replayed (10,000; --quick: 50)")
    parser.add_argument("--quick", action="store_true", help="50 ván, for make test (nothing judged)")
    parser.add_argument("--json", type=Path, help="write the figures here (bench/all.py)")
    args = parser.parse_args()
    n = args.van or (50 if args.quick else 10_000)
    _popen_wait_with_rusage()
    url = os.environ.get("DATABASE_URL", "")
    drop = None
    folder = tempfile.TemporaryDirectory(prefix="bench-replay-")
    if url.startswith("postgres"):
        from benchdb import bench_database

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")  # for its drop()

        url, drop = bench_database(url, "bench_replay", False)
        database = "PostgreSQL"
    else:
        url = f"sqlite:///{folder.name}/bench.sqlite3"
        database = "SQLite"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "totom_site.settings",
        "CELERY_BROKER_URL": "memory://",
        "DJANGO_DEBUG": os.environ.get("DJANGO_DEBUG", "false"),
    }
    env.pop("REDIS_URL", None)
    try:
        figures = run(n, database, env)
    finally:
        if drop is not None:
            drop()
        folder.cleanup()
    if args.json:
        args.json.write_text(json.dumps(figures, ensure_ascii=False, indent=1))


def run(n: int, database: str, env: dict[str, str]) -> dict[str, object]:
    child(["manage.py", "migrate", "--verbosity", "0"], env)
    request = json.dumps(
        {"game": "to-tom-5", "rules": RULES, "mode": "gom", "gom": 10, "players": PLAYERS, "van": history(n)}
    )
    one = json.dumps({**json.loads(request), "van": history(1)})
    _, floor, _ = child(["manage.py", "replay"], env, one)
    # --save: the same replay, committed instead of rolled back, so the exports have the sitting.
    out, peak, took = child(["manage.py", "replay", "--save"], env, request)
    answer = json.loads(out)
    total = sum(answer["balances"].values()) + answer["pool"] + answer["ga_trong"]
    assert len(answer["van"]) == n and total == 0, answer
    pk = answer["sitting_id"]
    exports = {}
    for what in EXPORTS:
        out, mb, secs = child(["-c", EXPORT_CHILD, str(pk), what], env)
        size, streamed, lane = out.split()
        exports[what] = {
            "peak_mb": round(mb, 1),
            "s": round(secs, 1),
            "bytes": int(size),
            "streamed": streamed,
            "lane": lane == "True",
        }
    judged = n >= 10_000
    verdict = (lambda mb: "met" if mb < TARGET_MB else "MISSED") if judged else (lambda mb: "not judged")
    lines = [
        f"bench/replay_memory.py on {database}: manage.py replay --save of {n:,} ván in {took:.1f} s, "
        f"peak RSS {peak:.0f} MB (a 1-ván replay: {floor:.0f} MB); target < {TARGET_MB} MB for 10,000 ván: "
        f"{verdict(peak)}",
        *(
            f"export {what} of the {n:,}-ván sitting: {e['bytes'] / 1e6:.1f} MB in {e['s']} s, peak RSS "
            f"{e['peak_mb']:.0f} MB (streamed: {e['streamed']}{', rendered on the bulk lane' if e['lane'] else ''}): "
            f"{verdict(e['peak_mb'])}"
            for what, e in exports.items()
        ),
    ]
    print("\n".join(lines), flush=True)
    return {
        "database": database,
        "van": n,
        "replay_peak_mb": round(peak, 1),
        "replay_floor_mb": round(floor, 1),
        "replay_s": round(took, 1),
        "exports": exports,
        "met": judged and peak < TARGET_MB and all(e["peak_mb"] < TARGET_MB for e in exports.values()),
        "lines": lines,
    }


if __name__ == "__main__":
    main()
