"""The app against a minimal DRF project, both served as ``make run`` serves the app, in one run.

Creates two throwaway databases next to the one ``DATABASE_URL`` names (PostgreSQL): the app's,
seeded with a public festival (its leaderboard built) and a scorekeeper's token, and the reference
project's (``bench/reference/``: one read view, one token-authenticated create). Starts both
servers the same way (``totom_site/serve.py``: granian, ``SOTOM_WORKERS`` processes of
``SOTOM_THREADS`` threads, persistent PostgreSQL connections) and loads them with **wrk** (Debian's;
its Lua scripts post the ván and the creates) in interleaved chunks, so that whatever else the
shared machine does hits every endpoint alike:

* ``read``: the reference's ``GET /items`` (one query), ``create``: its ``POST /items``
  (token, one row inserted in a transaction, an idempotency key), and ``page``: its ``GET /page``,
  a template rendered through Django's template engine with as many form controls and table rows
  as the calculator page has (counted on the calculator as served, checked on the page:
  ``bench/reference/page.py``);
* ``bare``: the app's ``GET /api/v1/clubs`` (a DRF view, one query), ``board``: the public
  scoreboard ``GET /giai/<slug>/``, ``calc``: the calculator ``GET /``;
* ``van``: ``POST /api/v1/sittings/<id>/van``, each of the ``--connections`` scorekeepers (50:
  ``bench/keepers.py``, each its own account, an organiser of the village) recording the next ván
  of its own sitting with an idempotency key, every ledger constraint.

Prints, per endpoint, requests/s, p50/p99 latency (over the run: each chunk's 200 quantiles merged),
errors, and the CPU per request of the server, of PostgreSQL and of the client (wrk), then the
targets, each a ratio in this run (issue 32's, the scoreboard's of issue 24): bare ≥ 1.0 × read;
board ≥ 0.5 × read; calc ≥ 0.7 × page; van ≥ 0.6 × create. The ván's p99 here is closed-loop (50
connections posting without a pause: latency = 50 ÷ throughput) and is only printed: its latency
target is open-loop, ``bench/openloop.py``.

``--variant NAME=ROOT`` (repeatable) adds the app served from another checkout (e.g. ``git
archive`` of an older commit) with its own database, for an A/B in the same run (bare, board,
calc, van). ``--layouts`` also serves the app the other ways measured for the choice of server
(``docs/performance.md``, "Serving"). ``--quick`` is the few-seconds run ``make test`` makes
(``tests/reliability/test_benchmarks.py``): it runs and prints, nothing is asserted on timings.
``--json FILE`` writes the figures for ``bench/all.py``.

Run from the repository root: ``DATABASE_URL=postgres://… .venv/bin/python bench/serving.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(BENCH))
from benchdb import bench_database  # noqa: E402 (bench/ is the script's own folder)
from reference.page import count as page_shape  # noqa: E402
from reference.page import encode  # noqa: E402

HOST = "127.0.0.1"
FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
CUOC = ["tom", "leo", "thap_dieu", "chi_nay", "bach_thu", "kinh_cu"]
VAN_PER_SITTING = 40
TARGETS = [  # (label, endpoint, reference endpoint, least ratio): issue 32's, the scoreboard's of issue 24
    ("app's bare API view ≥ 1.0 × the minimal read view", "bare", "read", 1.0),
    ("scoreboard page ≥ 0.5 × the minimal read view", "board", "read", 0.5),
    ("calculator page ≥ 0.7 × the reference page (same controls and rows)", "calc", "page", 0.7),
    ("ván entry ≥ 0.6 × the minimal authenticated create", "van", "create", 0.6),
]

# wrk's per-thread Lua: ``id`` is set by setup(); done() prints 200 latency quantiles (µs), each
# standing for 0.5 % of the chunk's requests, so that chunks merge (to within half a percent).
LUA_COMMON = r"""
local counter = 0
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
end
function done(summary, latency, requests)
  local out = {}
  for i = 1, 200 do
    out[#out + 1] = string.format("%d", latency:percentile(i * 0.5 - 0.25))
  end
  io.write("QUANTILES " .. table.concat(out, ",") .. "\n")
end
"""
LUA_VAN = (
    LUA_COMMON
    + r"""
local names = {"An", "Bình", "Chi", "Dũng", "Em"}
local cuoc = {"tom", "leo", "thap_dieu", "chi_nay", "bach_thu", "kinh_cu"}
function init(args)
  -- args[2]: one group a connection, "token,sitting,sitting…" (each its own scorekeeper), ";" between
  local groups = {}
  for group in string.gmatch(args[2], "[^;]+") do groups[#groups + 1] = group end
  sittings = {}
  for s in string.gmatch(groups[(id % #groups) + 1], "[^,]+") do sittings[#sittings + 1] = s end
  token = table.remove(sittings, 1)
  nonce = args[3]
  idx, seq, n = 1, 0, 0
  math.randomseed(id * 7919 + tonumber(nonce))
end
function request()
  if seq >= 40 and idx < #sittings then idx, seq = idx + 1, 0 end
  n = n + 1
  local w = math.random(5)
  local body
  if math.random() < 0.5 then
    body = string.format('{"seq": %d, "winner": "%s", "cuoc": ["%s"], "discarder": "%s"}',
                         seq + 1, names[w], cuoc[math.random(6)], names[(w % 5) + 1])
  else
    body = string.format('{"seq": %d, "winner": "%s", "cuoc": ["%s"]}', seq + 1, names[w], cuoc[math.random(6)])
  end
  return wrk.format("POST", "/api/v1/sittings/" .. sittings[idx] .. "/van",
    {["Content-Type"] = "application/json", ["Authorization"] = "Token " .. token,
     ["Idempotency-Key"] = "van-" .. nonce .. "-" .. id .. "-" .. n}, body)
end
function response(status, headers, body)
  if status == 201 then seq = seq + 1 end
end
"""
)
LUA_CREATE = (
    LUA_COMMON
    + r"""
function init(args)
  token, nonce, n = args[1], args[3], 0
end
function request()
  n = n + 1
  return wrk.format("POST", "/items",
    {["Content-Type"] = "application/json", ["Authorization"] = "Token " .. token,
     ["Idempotency-Key"] = "item-" .. nonce .. "-" .. id .. "-" .. n}, '{"name": "Ván", "amount": 18}')
end
"""
)


# -- set-up ------------------------------------------------------------------------------------------


def _record(rng: random.Random, names: list[str]) -> dict[str, Any]:
    winner = rng.choice(names)
    record: dict[str, Any] = {"winner": winner, "cuoc": [rng.choice(CUOC)]}
    if rng.random() < 0.5:
        record["discarder"] = rng.choice([n for n in names if n != winner])
    return record


SEED = r"""
import datetime as dt, json, os, random, sys
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from scoring.services.sittings import sitting_open
from tournaments.models import Table
from tournaments.services.events import check_in, event_create, registration_add
from tournaments.services.leaderboard import rebuild_leaderboard
from tournaments.services.rounds import round_seat
from tournaments.services.van import event_van_record
players, sittings_n = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(1)
CUOC = ["tom", "leo", "thap_dieu", "chi_nay", "bach_thu", "kinh_cu"]
def record(names):
    winner = rng.choice(names)
    r = {"winner": winner, "cuoc": [rng.choice(CUOC)]}
    if rng.random() < 0.5:
        r["discarder"] = rng.choice([n for n in names if n != winner])
    return r
event = event_create(name="Hội làng đo tải", date=dt.date(2025, 2, 3), game="to-tom-5", rules="luat-2005",
                     mode="quang", slug="hoi-lang-do-tai")
for i in range(players):
    check_in(registration=registration_add(event=event, name=f"Người {i + 1}", team=f"Giáp {i % 4 + 1}"))
for number in (1, 2):
    round_seat(event=event, method="random", seed=number)
    for table in Table.objects.filter(event=event, round__number=number).select_related("sitting"):
        names = [s.name for s in table.sitting.seats.order_by("position")]
        for seq in range(1, 9):
            event_van_record(table=table, seq=seq, record=record(names), idempotency_key=None)
rebuild_leaderboard(event_id=event.pk, force=True)
# Each connection its own scorekeeper, as a festival's (bench/keepers.py: an organiser of the village,
# so the hourly ván quota is its own club's, not a stranger's 600 that one shared account met in seconds).
from keepers import scorekeepers
print(json.dumps({"slug": event.slug, "keepers": scorekeepers(int(sys.argv[3]), sittings_n)}))
"""

REFERENCE_SEED = r"""
import json
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from reference.models import Item
user = get_user_model().objects.create_user("bench")
Item.objects.bulk_create(Item(key=f"seed-{i}", owner=user, name=f"Item {i}", amount=i) for i in range(10))
print(json.dumps({"token": Token.objects.create(user=user).key}))
"""


def _seed(root: Path, database: str, players: int, sittings: int, keepers: int) -> dict[str, Any]:
    """The festival and ``keepers`` scorekeepers of ``sittings`` sittings each (``keepers.py`` of
    this checkout, whichever checkout is seeded)."""
    out = _manage_script(
        root, database, SEED, str(players), str(sittings), str(keepers), pythonpath=f"{root}:{BENCH}"
    )
    return json.loads(out.strip().splitlines()[-1])


def _manage_script(
    root: Path,
    database: str,
    script: str,
    *args: str,
    settings: str = "totom_site.settings",
    pythonpath: str = "",
) -> str:
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "DJANGO_SETTINGS_MODULE": settings,
        "CELERY_BROKER_URL": "memory://",
        "PYTHONPATH": pythonpath or str(root),
    }
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [python(root), "-c", script, *args], cwd=root, env=env, capture_output=True, text=True
    )
    if done.returncode:
        sys.exit(f"seeding failed in {root}:\n{done.stderr[-3000:]}")
    return done.stdout


def python(root: Path) -> str:
    """The interpreter of a checkout: its own ``.venv`` when it has one (an older checkout's
    dependencies differ: ``bench/all.py`` syncs it from its own lock), else this one."""
    own = root / ".venv" / "bin" / "python"
    return str(own) if root != ROOT and own.exists() else sys.executable


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


# -- servers ---------------------------------------------------------------------------------------


@dataclass
class Server:
    """One served project: its process (a process group) and port."""

    name: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path
    extra: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def cpu_seconds(self) -> float:
        return sum(_tree_cpu(p.pid) for p in [self.proc, *self.extra])


def _start(name: str, argv: list[str], env: dict[str, str], cwd: Path, probe: str, port: int) -> Server:
    log = Path(tempfile.mkstemp(prefix=f"bench-{name}-", suffix=".log")[1])
    with log.open("wb") as out:
        proc = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    server = Server(name, port, proc, log)
    _wait(server, probe)
    return server


def _wait(server: Server, probe: str, timeout: float = 300) -> None:
    import http.client

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            break
        try:
            conn = http.client.HTTPConnection(HOST, server.port, timeout=60)
            conn.request("GET", probe)
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.3)
    log = server.log.read_text()[-3000:]
    _stop(server)
    sys.exit(f"{server.name} did not start:\n{log}")


def _stop(server: Server) -> None:
    for proc in [server.proc, *server.extra]:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=15)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    server.log.unlink(missing_ok=True)


def _get(server: Server, path: str) -> str:
    """One page as the server answers it (200 or stop)."""
    import http.client

    conn = http.client.HTTPConnection(HOST, server.port, timeout=60)
    conn.request("GET", path, headers={"Accept": "text/html"})
    response = conn.getresponse()
    body = response.read().decode()
    conn.close()
    if response.status != 200:
        sys.exit(f"{server.name} GET {path}: {response.status}")
    return body


def _env(database: str, root: Path, **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "DJANGO_DEBUG": "false",
        "CELERY_BROKER_URL": "memory://",
        "PYTHONPATH": str(root),
        **extra,
    }
    for name in ("DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"):
        env.pop(name, None)
    if int(env.get("SOTOM_WORKERS", "1")) <= 1:
        env.pop("REDIS_URL", None)
    # The pool totom_site/serve.py turns on for PostgreSQL, for every layout and the reference alike.
    env.setdefault("DATABASE_POOL_SIZE", str(int(env.get("SOTOM_THREADS", "4")) + 2))
    return env


def serve_app(root: Path, database: str, name: str = "app", **extra: str) -> Server:
    """The app from ``root``, as ``make run`` serves it (``root``'s own ``totom_site/serve.py``)."""
    port = _free_port()
    if (root / "totom_site" / "serve.py").exists():
        argv = [python(root), "-m", "totom_site.serve", HOST, str(port)]
    else:  # a checkout from before serve.py: daphne, as it was served then (pool of 4)
        argv = [python(root), "-m", "daphne", "-b", HOST, "-p", str(port), "totom_site.asgi:application"]
        extra.setdefault("DATABASE_POOL_SIZE", "4")
    return _start(name, argv, _env(database, root, **extra), root, "/api/v1/clubs", port)


def serve_reference(database: str, shape: dict[str, int] | None = None) -> Server:
    """The reference project, served exactly as the app (the same granian command line); its page
    with ``shape``'s form controls and table rows (``bench/reference/page.py``)."""
    from totom_site.serve import command

    port = _free_port()
    argv = command(HOST, port, app="reference.asgi:application")
    env = _env(
        database, BENCH, DJANGO_SETTINGS_MODULE="reference.settings", REFERENCE_PAGE=encode(shape or {})
    )
    return _start("reference", argv, env, BENCH, "/items", port)


def serve_layout(layout: str, database: str) -> Server:
    """The app served another way, for the choice of server (``--layouts``)."""
    port = _free_port()
    threads = os.environ.get("SOTOM_THREADS", "4")
    granian = str(Path(sys.executable).with_name("granian"))
    env = _env(database, ROOT)
    if layout == "granian-wsgi":  # granian's own WSGI interface (no event streams: those need ASGI)
        argv = [
            granian,
            "--interface",
            "wsgi",
            "--blocking-threads",
            threads,
            "--host",
            HOST,
            "--port",
            str(port),
            "--no-ws",
            "--log-level",
            "warning",
            "totom_site.wsgi:application",
        ]
        return _start(layout, argv, env, ROOT, "/api/v1/clubs", port)
    if layout == "nginx+granian-wsgi":  # the split layout: nginx in front, the WSGI server behind
        inner = serve_layout("granian-wsgi", database)
        folder = Path(tempfile.mkdtemp(prefix="bench-nginx-"))
        (folder / "nginx.conf").write_text(NGINX.format(port=port, upstream=inner.port, folder=folder))
        argv = ["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"]
        outer = _start(layout, argv, env, ROOT, "/api/v1/clubs", port)
        outer.extra.append(inner.proc)
        return outer
    if layout in ("asgi-stock", "asgi-one-hop"):  # Django's ASGI handler for every request, on granian
        from totom_site.serve import command

        app = "asgi_variants:" + ("stock" if layout == "asgi-stock" else "one_hop")
        env["PYTHONPATH"] = f"{BENCH}:{ROOT}"
        return _start(layout, command(HOST, port, app=app), env, ROOT, "/api/v1/clubs", port)
    raise SystemExit(f"no layout {layout!r}")


NGINX = """
worker_processes 1;
pid {folder}/nginx.pid;
error_log stderr warn;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {folder}/body;
  proxy_temp_path {folder}/proxy;
  fastcgi_temp_path {folder}/fastcgi;
  uwsgi_temp_path {folder}/uwsgi;
  scgi_temp_path {folder}/scgi;
  upstream app {{ server 127.0.0.1:{upstream}; keepalive 64; }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
    }}
  }}
}}
"""


def _tree_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process and its live descendants."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    stats: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            raw = (entry / "stat").read_text()
        except OSError:
            continue
        rest = raw[raw.rindex(")") + 2 :].split()
        ppid = int(rest[1])
        children.setdefault(ppid, []).append(int(entry.name))
        stats[int(entry.name)] = (int(rest[11]) + int(rest[12])) / tick
    total, todo = 0.0, [pid]
    while todo:
        p = todo.pop()
        total += stats.get(p, 0.0)
        todo += children.get(p, [])
    return total


def _postmaster(database: str) -> int:
    import psycopg

    with psycopg.connect(database) as conn:  # read while the backend lives (it exits on close)
        backend = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        raw = Path(f"/proc/{backend}/stat").read_text()
    return int(raw[raw.rindex(")") + 2 :].split()[1])


# -- load ------------------------------------------------------------------------------------------


@dataclass
class Figures:
    """One endpoint's chunks, summed."""

    requests: int = 0
    seconds: float = 0.0
    errors: Counter[str] = field(default_factory=Counter)
    histogram: Counter[int] = field(default_factory=Counter)  # latency µs → requests (from quantiles)
    server_cpu: float = 0.0
    db_cpu: float = 0.0
    client_cpu: float = 0.0

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """The latency (ms) under which ``q`` of the requests were answered."""
        total = sum(self.histogram.values())
        if not total:
            return float("nan")
        seen = 0
        for micros in sorted(self.histogram):
            seen += self.histogram[micros]
            if seen >= q * total:
                return micros / 1000
        return max(self.histogram) / 1000

    def per_request_ms(self, cpu: float) -> float:
        return cpu * 1000 / self.requests if self.requests else float("nan")


@dataclass
class Endpoint:
    name: str
    server: Server
    path: str
    lua: str = ""
    args: Callable[[int], list[str]] = lambda _chunk: []
    threads: int = 2
    figures: Figures = field(default_factory=Figures)


def _wrk(
    endpoint: Endpoint, seconds: int, connections: int, chunk: int, postmaster: int, scripts: Path
) -> None:
    threads = connections if endpoint.threads == 0 else min(endpoint.threads, connections)
    lua = scripts / f"{endpoint.name}.lua"
    lua.write_text(endpoint.lua or LUA_COMMON)
    argv = [
        "wrk",
        "-t",
        str(threads),
        "-c",
        str(connections),
        "-d",
        f"{seconds}s",
        "--timeout",
        "5s",
        "-s",
        str(lua),
        f"http://{HOST}:{endpoint.server.port}{endpoint.path}",
    ]
    if endpoint.args(chunk):
        argv += ["--", *endpoint.args(chunk)]
    before = (
        endpoint.server.cpu_seconds(),
        _tree_cpu(postmaster),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    started = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    fig = endpoint.figures
    fig.server_cpu += endpoint.server.cpu_seconds() - before[0]
    fig.db_cpu += _tree_cpu(postmaster) - before[1]
    fig.client_cpu += (after.ru_utime + after.ru_stime) - (before[2].ru_utime + before[2].ru_stime)
    out = done.stdout
    if done.returncode:
        fig.errors[f"wrk exit {done.returncode}: {done.stderr.strip()[:200]}"] += 1
        return
    found = re.search(r"(\d+) requests in ([\d.]+)(m?s)", out)
    if found:
        fig.requests += int(found.group(1))
        fig.seconds += float(found.group(2)) / (1000 if found.group(3) == "ms" else 1)
    else:
        fig.seconds += elapsed
    if bad := re.search(r"Non-2xx or 3xx responses: (\d+)", out):
        fig.errors["non-2xx"] += int(bad.group(1))
        fig.requests -= int(bad.group(1))
    if sock := re.search(r"Socket errors: (.*)", out):
        for kind, n in re.findall(r"(\w+) (\d+)", sock.group(1)):
            if int(n):
                fig.errors[kind] += int(n)
    answered = int(found.group(1)) if found else 0
    for line in out.splitlines():
        if line.startswith("QUANTILES "):
            for micros in line[10:].split(","):
                if micros:
                    fig.histogram[int(micros)] += answered / 200


def run(
    endpoints: list[Endpoint], *, rounds: int, chunk: int, gap: float, connections: int, postmaster: int
) -> None:
    """Every endpoint for ``chunk`` seconds in turn, ``rounds`` times."""
    scripts = Path(tempfile.mkdtemp(prefix="bench-wrk-"))
    try:
        for r in range(rounds):
            for endpoint in endpoints:
                _wrk(endpoint, chunk, connections, r, postmaster, scripts)
                time.sleep(gap)
    finally:
        shutil.rmtree(scripts, ignore_errors=True)


# -- report ----------------------------------------------------------------------------------------


LABELS = {
    "read": "reference GET /items",
    "page": "reference page GET /page (template)",
    "create": "reference POST /items (token, key)",
    "bare": "app GET /api/v1/clubs",
    "board": "app scoreboard GET /giai/<slug>/",
    "calc": "app calculator GET /",
    "van": "app ván POST …/van (token, key)",
}


def table(endpoints: list[Endpoint]) -> list[str]:
    lines = [
        "| endpoint | req/s | p50 ms | p99 ms | errors | server CPU ms/req | PostgreSQL CPU ms/req | wrk CPU ms/req |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for e in endpoints:
        f = e.figures
        label = LABELS.get(e.name.split("@")[0], e.name)
        if "@" in e.name:
            label += f" ({e.name.split('@')[1]})"
        lines.append(
            f"| {label} | {f.rps:.0f} | {f.percentile(0.5):.1f} | {f.percentile(0.99):.1f} | "
            f"{sum(f.errors.values())} | {f.per_request_ms(f.server_cpu):.2f} | "
            f"{f.per_request_ms(f.db_cpu):.2f} | {f.per_request_ms(f.client_cpu):.2f} |"
        )
    return lines


def targets(by_name: dict[str, Figures]) -> list[dict[str, Any]]:
    found = []
    for label, name, reference, least in TARGETS:
        ratio = by_name[name].rps / by_name[reference].rps if by_name[reference].rps else 0.0
        found.append({"target": label, "key": name, "value": round(ratio, 2), "met": ratio >= least})
    return found


def main() -> None:  # noqa: C901 (the run's steps in order: set up, serve, load, report)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds (6)")
    parser.add_argument("--chunk", type=int, default=5, help="seconds per endpoint per round (5)")
    parser.add_argument("--gap", type=float, default=1.0, help="seconds between chunks (1)")
    parser.add_argument("--connections", type=int, default=50, help="concurrent clients (50 scorekeepers)")
    parser.add_argument("--players", type=int, default=60, help="festival players (60)")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME=ROOT",
        help="also serve the app from another checkout (A/B in the same run)",
    )
    parser.add_argument("--layouts", action="store_true", help="also serve the app the other ways measured")
    parser.add_argument(
        "--quick", action="store_true", help="a few seconds, for make test (no timing judged)"
    )
    parser.add_argument("--json", type=Path, help="write the figures here (bench/all.py)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the servers (finally) when stopped
    if args.quick:
        # 3 s a chunk: each scorekeeper's first ván (its quota row, its pool connection's first ván)
        # took over a second on a machine at load 20, and a 1 s chunk then answered none.
        args.rounds, args.chunk, args.gap, args.connections, args.players = 1, 3, 0.2, 8, 10
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("bench/serving.py needs DATABASE_URL=postgres://… (PostgreSQL).")
    if shutil.which("wrk") is None:
        sys.exit("bench/serving.py needs wrk (Debian package `wrk`: make system-deps-test).")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")
    # Sittings for the ván: fresh ones in every chunk, two per scorekeeper (40 ván each).
    sittings_each = 2
    cleanup: list[Callable[[], None]] = []
    servers: list[Server] = []
    try:
        dbs = {}
        for name in ["app", "reference", *[v.split("=")[0] for v in args.variant]]:
            db, drop = bench_database(url, f"bench_serving_{re.sub(r'[^a-z0-9]', '_', name.lower())}", False)
            dbs[name] = db
            cleanup.append(drop)
        started = time.monotonic()
        roots = {"app": ROOT, **{v.split("=")[0]: Path(v.split("=", 1)[1]).resolve() for v in args.variant}}
        seeds = {
            name: _seed(root, dbs[name], args.players, args.rounds * sittings_each, args.connections)
            for name, root in roots.items()
        }
        ref = json.loads(
            _manage_script(
                BENCH,
                dbs["reference"],
                REFERENCE_SEED,
                settings="reference.settings",
                pythonpath=f"{BENCH}:{ROOT}",
            )
            .strip()
            .splitlines()[-1]
        )
        print(f"seeded in {time.monotonic() - started:.0f} s")
        endpoints: list[Endpoint] = []
        for name, root in roots.items():
            server = serve_app(root, dbs[name], name)
            servers.append(server)
            seed = seeds[name]
            suffix = "" if name == "app" else f"@{name}"

            def van_args(c: int, seed: dict[str, Any] = seed) -> list[str]:
                groups = ";".join(
                    ",".join(
                        [
                            k["token"],
                            *(str(s) for s in k["sittings"][c * sittings_each : (c + 1) * sittings_each]),
                        ]
                    )
                    for k in seed["keepers"]
                )
                return ["", groups, str(c + 1)]

            endpoints += [
                Endpoint(f"bare{suffix}", server, "/api/v1/clubs"),
                Endpoint(f"board{suffix}", server, f"/giai/{seed['slug']}/"),
                Endpoint(f"calc{suffix}", server, "/"),
                Endpoint(f"van{suffix}", server, "/api/v1/sittings/0/van", LUA_VAN, van_args, threads=0),
            ]
        # The reference page has the calculator's form controls and table rows, counted on the
        # calculator as the app serves it (bench/reference/page.py), and is checked to have them.
        shape = page_shape(_get(servers[0], "/"))
        reference = serve_reference(dbs["reference"], shape)
        servers.append(reference)
        got = page_shape(_get(reference, "/page"))
        print(f"reference page: {encode(got)} (the calculator's: {encode(shape)})")
        if got != shape:
            sys.exit("the reference page does not have the calculator's form controls and table rows")
        endpoints = [
            Endpoint("read", reference, "/items"),
            Endpoint("create", reference, "/items", LUA_CREATE, lambda c: [ref["token"], "", str(c + 1)]),
            Endpoint("page", reference, "/page"),
            *endpoints,
        ]
        if args.layouts:
            for layout in ("asgi-stock", "asgi-one-hop", "granian-wsgi", "nginx+granian-wsgi"):
                server = serve_layout(layout, dbs["app"])
                servers.append(server)
                endpoints += [
                    Endpoint(f"bare@{layout}", server, "/api/v1/clubs"),
                    Endpoint(f"calc@{layout}", server, "/"),
                    Endpoint(f"board@{layout}", server, f"/giai/{seeds['app']['slug']}/"),
                ]
        postmaster = _postmaster(dbs["app"])
        print(
            f"load: wrk, {args.connections} connections, {args.rounds} rounds of {args.chunk} s per endpoint, "
            f"interleaved; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}"
        )
        run(
            endpoints,
            rounds=args.rounds,
            chunk=args.chunk,
            gap=args.gap,
            connections=args.connections,
            postmaster=postmaster,
        )
    finally:
        for server in servers:
            _stop(server)
        for drop in cleanup:
            drop()
    workers, threads = os.environ.get("SOTOM_WORKERS", "1"), os.environ.get("SOTOM_THREADS", "4")
    print(
        f"\nbench/serving.py: served by totom_site/serve.py (granian, {workers} process(es) × {threads} threads, "
        f"persistent connections), load average after {os.getloadavg()[0]:.1f}"
    )
    lines = table(endpoints)
    print("\n".join(lines))
    for e in endpoints:
        if e.figures.errors:
            print(f"  errors ({e.name}): {dict(e.figures.errors)}")
    by_name = {e.name: e.figures for e in endpoints}
    found = targets(by_name)
    measured_nothing = [e.name for e in endpoints if not e.figures.requests]
    for t in found:
        print(f"target: {t['target']}: {t['value']} {'met' if t['met'] else 'MISSED'}")
    ab = []
    for name in roots:
        if name != "app":
            for what in ("bare", "board", "calc", "van"):
                a, b = by_name[what], by_name[f"{what}@{name}"]
                ab.append(
                    f"A/B {what}: this checkout {a.rps:.0f} req/s, {name} {b.rps:.0f} req/s: "
                    f"{(a.rps / b.rps - 1) * 100 if b.rps else float('nan'):+.0f} %"
                )
    print("\n".join(ab))
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "table": lines,
                    "targets": found,
                    "quick": args.quick,
                    "ab": ab,
                    "run": " ".join(sys.argv[1:]),
                    "errors": {e.name: dict(e.figures.errors) for e in endpoints},
                    "cpu_ms": {
                        e.name: {
                            "server": round(e.figures.per_request_ms(e.figures.server_cpu), 3),
                            "postgres": round(e.figures.per_request_ms(e.figures.db_cpu), 3),
                        }
                        for e in endpoints
                    },
                },
                ensure_ascii=False,
                indent=1,
            )
        )
    if measured_nothing:
        sys.exit(f"no request answered on: {', '.join(measured_nothing)}")


if __name__ == "__main__":
    main()
