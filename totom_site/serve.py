"""How the app is served, in one place: ``python -m totom_site.serve HOST PORT``.

``make run`` (``.ci/run-app.sh``), the tests that start a real server and the benchmarks all start
the app through this module, so they measure and test what users get. It replaces itself (``exec``)
with **granian** serving ``totom_site.asgi:application``: pages and the API on Django's WSGI handler
in ``SOTOM_THREADS`` threads per process (default 4), the audience display's event streams on
Django's ASGI handler (``totom_site/asgi.py`` says why one server; ``docs/performance.md`` has the
measurements).

On PostgreSQL each process keeps its connections in psycopg's pool (``DATABASE_POOL_SIZE``, by
default ``SOTOM_THREADS`` + 2: one per thread and two for the event streams) instead of opening one
per request; ``DATABASE_POOL_SIZE=0`` turns it off. SQLite (``make run``) opens a file: no pool.
There a statement runs at most ``DATABASE_STATEMENT_TIMEOUT_MS`` (default 30 s; the request answers
503) and a session idles in a transaction at most ``DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS`` (60 s).

``SOTOM_WORKERS`` processes (default 1). More than one needs ``REDIS_URL``: django-eventstream then
carries events between processes; without it a display would only hear the signals posted to its
own process, so several workers without Redis are refused. With ``GRIP_URL`` (Pushpin in front:
``totom_site/pushpin.py``) Pushpin holds the displays and every event is published to it: no Redis
needed for them.

On the festival's LAN (``HOST=0.0.0.0``) it also starts the HTTPS listener of ``totom_site/tls.py``
on ``SOTOM_HTTPS_PORT`` (by default PORT + 443), in front of the same server: phones that trust the
laptop's local CA once get a secure context there, so the service worker keeps the pages offline.
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

from totom_site.lan import https_port

ROOT = Path(__file__).resolve().parent.parent


def command(
    host: str,
    port: int,
    *,
    workers: int | None = None,
    app: str = "totom_site.asgi:application",
) -> list[str]:
    """The server's command line (granian's own executable, from this interpreter's environment)."""
    workers = workers if workers is not None else int(os.environ.get("SOTOM_WORKERS", "1"))
    crossing = os.environ.get("REDIS_URL") or os.environ.get("GRIP_URL")
    if workers > 1 and not crossing and app.startswith("totom_site."):
        raise SystemExit(
            "SOTOM_WORKERS > 1 needs REDIS_URL (the displays' events cross processes through Redis) "
            "or GRIP_URL (Pushpin holds the displays)."
        )
    granian = Path(sys.executable).with_name("granian")
    exe = str(granian) if granian.exists() else (shutil.which("granian") or "granian")
    return [
        exe,
        "--interface",
        "asgi",
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
        "--no-ws",
        "--workers-kill-timeout",
        "5",
        "--log-level",
        os.environ.get("SOTOM_SERVER_LOG_LEVEL", "warning"),
        app,
    ]


def start_https(host: str, port: int, https: int) -> subprocess.Popen[bytes] | None:
    """The TLS listener for the LAN (``totom_site/tls.py``): the certificates made or kept, a token
    for this run that only the listener and the app know, the listener started as a child that
    stops once this process (granian, after the exec) is gone. Without certificates (a read-only
    ``var/``…) the app is still served on plain HTTP, and says why there is no HTTPS."""
    from totom_site.lan import allowed_hosts
    from totom_site.tls import ensure_certificates, names_from_hosts

    given = os.environ.get("DJANGO_ALLOWED_HOSTS", "")
    hosts = given.split(",") if given else allowed_hosts(host)
    try:
        folder = ensure_certificates(names_from_hosts(hosts))
    except (OSError, ValueError) as exc:
        print(f"HTTPS: không tạo được chứng chỉ / no certificate ({exc}); HTTP only", file=sys.stderr)
        return None
    os.environ["SOTOM_TLS_DIR"] = str(folder)
    os.environ["SOTOM_TLS_TOKEN"] = secrets.token_urlsafe(24)
    os.environ["SOTOM_HTTPS_PORT"] = str(https)
    return subprocess.Popen(
        [sys.executable, "-m", "totom_site.tls", "proxy", host, str(https), str(port)], cwd=ROOT
    )


#: The app servers' time bounds of a PostgreSQL statement and of a session idle in a transaction
#: (milliseconds; settings.py, totom_site/dbtime.py): a request's query cannot hold a database core
#: long after its client has given up (30 s is longer than a phone waits for a page; the long work,
#: a report above REPORT_JOB_MIN_VAN ván or a big import, is a job on the bulk lane, not a request).
STATEMENT_TIMEOUT_MS = 30_000
IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000


def app_server_bounds() -> None:
    """The app server's defaults of ``DATABASE_STATEMENT_TIMEOUT_MS`` and
    ``DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS``, unless the environment or ``.env`` sets them."""
    import environ

    if (ROOT / ".env").exists():  # as settings.py reads it: the environment first
        environ.Env.read_env(ROOT / ".env", overwrite=False)
    os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT_MS", str(STATEMENT_TIMEOUT_MS))
    os.environ.setdefault("DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS", str(IDLE_IN_TRANSACTION_TIMEOUT_MS))


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit("usage: python -m totom_site.serve HOST PORT")
    os.chdir(ROOT)
    os.environ.setdefault("DATABASE_POOL_SIZE", str(int(os.environ.get("SOTOM_THREADS", "4")) + 2))
    app_server_bounds()
    host, port = sys.argv[1], int(sys.argv[2])
    argv = command(host, port)
    https = https_port(host, port)  # totom_site/lan.py
    if https is None or start_https(host, port, https) is None:
        os.environ.pop("SOTOM_TLS_TOKEN", None)  # no listener: nothing may pass as HTTPS
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
