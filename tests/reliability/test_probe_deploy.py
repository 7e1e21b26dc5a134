"""Deployment defaults: `make run HOST=0.0.0.0` answers phones on the LAN, and the secret key is the install's own.

Finding 14 of issue 20 (with ``test_probe_csp.py`` for the Content-Security-Policy):

* ``make run HOST=0.0.0.0`` answered 400 to every phone on the LAN unless ``DJANGO_ALLOWED_HOSTS``
  was set. The run script now allows the machine's own addresses and names (``totom_site/lan.py``)
  and prints the URLs to open; a Host naming another site is still refused. Tried with the script's
  own allowance (``.ci/lan.sh``, sourced by ``.ci/run-app.sh``) in front of daphne, asked through the
  machine's LAN addresses; ``make test-slow`` runs ``.ci/run-app.sh 0.0.0.0`` whole.
* ``make run`` used a public ``django-insecure-`` key written in the repository. Without
  ``DJANGO_SECRET_KEY`` an install now makes its own under ``var/`` (mode 600) and keeps it.
"""

from __future__ import annotations

import http.client
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.harness import ROOT
from tests.subprocesses import free_port, stop_process
from totom_site.lan import addresses

#: The development key the repository used to carry (anyone could sign sessions with it).
PUBLIC_KEY = "django-insecure-dev-only-change-me-in-production-0123456789"


def _env(**extra: str) -> dict[str, str]:
    base = {
        k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "CELERY_", "REDIS_"))
    }
    return {**base, **extra}


def _get(address: str, port: int, host: str | None = None) -> int:
    conn = http.client.HTTPConnection(address, port, timeout=10)
    try:
        conn.request("GET", "/", headers={"Host": host or f"{address}:{port}", "Connection": "close"})
        return conn.getresponse().status
    finally:
        conn.close()


def _serve(tmp_path: Path, port: int, **extra: str) -> tuple[subprocess.Popen[bytes], Path]:
    """``.ci/run-app.sh 0.0.0.0 PORT`` on its own SQLite file and broker folder, in its own
    process group (stopped by that group's id, the script's own PID)."""
    log = tmp_path / "run-app.log"
    env = _env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}",
        CELERY_FS_BROKER_DIR=str(tmp_path / "broker"),
        **extra,
    )
    with log.open("wb") as out:
        proc = subprocess.Popen(
            ["bash", ".ci/run-app.sh", "0.0.0.0", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return proc, log


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)  # the script's own group: daphne and its Celery worker
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _wait_up(proc: subprocess.Popen[bytes], log: Path, port: int) -> None:
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"run-app.sh ended:\n{log.read_text()[-3000:]}", pytrace=False)
        try:
            _get("127.0.0.1", port)
            return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"run-app.sh did not serve:\n{log.read_text()[-3000:]}", pytrace=False)


@pytest.mark.django_db(transaction=True)
def test_the_run_scripts_allowance_answers_the_lan(probe: Any) -> None:
    """What ``.ci/run-app.sh`` does (it sources ``.ci/lan.sh``), then daphne on every interface
    over the test database, asked through the machine's LAN addresses; the control: without it."""
    from tests.reliability.harness import database_url

    lan = addresses()
    if not lan:
        pytest.skip("this machine has no LAN address (only loopback)")
    probe.check(
        "source .ci/lan.sh" in (ROOT / ".ci" / "run-app.sh").read_text(),
        "run-app.sh no longer allows the LAN",
    )
    for allowance, want in ((True, 200), (False, 400)):
        port = free_port()
        script = (
            f"PY={sys.executable}; HOST=0.0.0.0; {'source .ci/lan.sh; ' if allowance else ''}"
            f"exec $PY -m daphne -b 0.0.0.0 -p {port} totom_site.asgi:application"
        )
        daphne = subprocess.Popen(
            ["bash", "-c", script],
            cwd=ROOT,
            env=_env(DATABASE_URL=database_url()),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_up(daphne, Path("/dev/null"), port)
            answers = {address: _get(address, port) for address in lan}
            probe.check(
                set(answers.values()) == {want}, f"allowance {allowance}: the LAN addresses got {answers}"
            )
            if allowance:
                probe.check(
                    _get(lan[0], port, host="so-tom.evil.example") == 400, "a foreign Host was answered"
                )
        finally:
            stop_process(daphne)
    printed = subprocess.run(
        [sys.executable, "-m", "totom_site.lan", "urls", "0.0.0.0", "8000"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    probe.check(
        all(f"http://{a}:8000/" in printed for a in lan), f"the URLs to open are not printed:\n{printed}"
    )


@pytest.mark.slow
def test_make_run_on_every_interface_answers_the_lan(tmp_path: Path, probe: Any) -> None:
    """The whole ``make run HOST=0.0.0.0`` (``.ci/run-app.sh``: migrate, demo data, a worker, daphne)."""
    lan = addresses()
    if not lan:
        pytest.skip("this machine has no LAN address (only loopback)")
    port = free_port()
    proc, log = _serve(tmp_path, port)
    try:
        _wait_up(proc, log, port)
        answers = {address: _get(address, port) for address in lan}
        probe.check(
            set(answers.values()) == {200}, f"phones opening the machine's LAN addresses got {answers}"
        )
        probe.check(
            _get(lan[0], port, host="so-tom.evil.example") == 400, "a foreign Host header was answered"
        )
        printed = log.read_text(errors="replace")
        probe.check(
            all(f"http://{a}:{port}/" in printed for a in lan),
            f"the URLs to open are not printed:\n{printed}",
        )
    finally:
        _stop(proc)
    # The control: the same app on every interface without the run script's allowance is what
    # phones got before (400).
    env = _env(DATABASE_URL=f"sqlite:///{tmp_path / 'run.sqlite3'}")
    daphne = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "0.0.0.0", "-p", str(port), "totom_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        _wait_up(daphne, log, port)
        probe.check(_get(lan[0], port) == 400, "the control: without the allowance the LAN was answered")
    finally:
        stop_process(daphne)


def _settings_key(env: dict[str, str]) -> str:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
            "'totom_site.settings'); django.setup(); from django.conf import settings; print(settings.SECRET_KEY)",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_install_makes_and_keeps_its_own_secret_key(tmp_path: Path, probe: Any) -> None:
    from totom_site.install import install_secret_key

    key_file = tmp_path / "var" / "secret_key"
    first = install_secret_key(key_file)
    probe.check(
        key_file.exists() and stat.S_IMODE(key_file.stat().st_mode) == 0o600,
        f"the key is not kept readable by its owner only: {key_file}",
    )
    probe.check(
        len(first) >= 50 and len(set(first)) >= 5 and not first.startswith("django-insecure-"),
        f"a weak key was made: {first[:12]}…",
    )
    probe.check(install_secret_key(key_file) == first, "another start made another key")
    probe.check(install_secret_key(tmp_path / "other" / "secret_key") != first, "two installs share a key")
    # The settings use it when DJANGO_SECRET_KEY is not set, in every process (daphne, the worker)...
    env = _env(DJANGO_SECRET_KEY_FILE=str(key_file))
    probe.check(_settings_key(env) == first, "the settings do not use the install's key")
    # ... and check --deploy finds nothing weak about it.
    deploy = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    probe.check(
        "security.W009" not in deploy.stdout + deploy.stderr, "check --deploy finds the install's key weak"
    )


def test_no_public_secret_key_in_the_repository(probe: Any) -> None:
    holders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "totom_site").rglob("*.py")
        if re.search(r"django-insecure-", p.read_text("utf-8"))
    ]
    probe.check(not holders, f"a development key is written in {holders}")
    probe.check(
        PUBLIC_KEY not in (ROOT / "totom_site" / "settings.py").read_text("utf-8"), "the public key is back"
    )
