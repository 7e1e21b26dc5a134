"""Pushpin in front of the app: the audience displays' streams held by Pushpin, not by app processes.

With ``GRIP_URL`` set (``totom_site/settings.py``), a display's stream request reaches the app
through Pushpin: the app answers the events the display missed and a GRIP "hold" (django-eventstream's
GRIP support, django-grip), then is free; Pushpin keeps the connection open. A signal's event is
stored once and published once to Pushpin (``send_event``), which sends it to every display it holds.
No app process reads display events from Redis.

This module writes Pushpin's configuration and routes for one instance (its own folder, its own
ports, so several may run on one machine: tests, benchmarks, another developer's) and starts it:

* ``python -m totom_site.pushpin run PORT UPSTREAM[,UPSTREAM…]`` runs Pushpin in the foreground on
  ``PORT`` (every request proxied to the upstreams, app servers as ``HOST:PORT``), and prints nothing
  else; ``.ci/run-app.sh`` starts it this way when ``PUSHPIN=1 make run``;
* :func:`plan` then :func:`running` start one as a child (tests, ``bench/display.py``): the
  :class:`Instance` has the public port and the ``GRIP_URL`` to give the app servers.

Pushpin signs each request it proxies with a key (``sig_key``) made for the instance; ``GRIP_URL``
carries it as ``key`` (django-grip checks the signature with it; it also signs what the app publishes), so the app treats a request as proxied only when Pushpin signed it (a
client that sends a ``Grip-Sig`` header straight to the app gets an ordinary stream).

Pushpin is a Debian package (``pushpin``: ``.ci/apt.sh pushpin``).
"""

from __future__ import annotations

import http.client
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

HOST = "127.0.0.1"
#: Pushpin's own files (the Debian package): the internal wiring of its processes.
LIBDIR = Path("/usr/lib/pushpin")
#: Messages a second the handler delivers (Pushpin's default, 2,500, would spread one signal to
#: 1,000 displays over 0.4 s, and the next waits behind it).
MESSAGE_RATE = 200_000


def installed() -> bool:
    return shutil.which("pushpin") is not None and (LIBDIR / "internal.conf").exists()


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


@dataclass
class Instance:
    port: int  #: where the displays (and, through it, the rest of the app) are served
    publish_port: int  #: Pushpin's HTTP publish endpoint (``/publish/``)
    key: str  #: the key Pushpin signs proxied requests with
    folder: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def grip_url(self) -> str:
        """``GRIP_URL`` for the app servers behind this instance."""
        return f"http://{HOST}:{self.publish_port}/?key={quote(self.key)}&verify-iss=pushpin"

    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None


def configure(
    folder: Path, port: int, upstreams: Sequence[str], *, key: str | None = None, host: str = HOST
) -> Instance:
    """Write ``pushpin.conf`` and ``routes`` into ``folder`` for Pushpin on ``port`` in front of the
    ``upstreams`` (``HOST:PORT`` each; Pushpin balances requests over them), listening on ``host``."""
    folder.mkdir(parents=True, exist_ok=True)
    # Its processes talk over ZeroMQ IPC sockets: in the temporary folder, not under the project
    # (a shared or network file system may refuse Unix sockets).
    rundir = Path(tempfile.mkdtemp(prefix=f"sotom-pushpin-{port}-"))
    (folder / "log").mkdir(exist_ok=True)
    key = key or secrets.token_urlsafe(24)
    ports = {name: free_port() for name in ("push_in", "push_sub", "publish", "command")}
    conf = f"""# Written by totom_site/pushpin.py: one Pushpin instance, its own folder and ports.
[global]
include={LIBDIR}/internal.conf
rundir={rundir}
ipc_prefix=sotom-{port}-
port_offset=0
stats_connection_ttl=120

[runner]
services=condure,zurl,pushpin-proxy,pushpin-handler
http_port={host}:{port}
logdir={folder / "log"}
log_level=1
client_buffer_size=8192
client_maxconn=100000
condure_bin=condure
zurl_bin=zurl

[proxy]
# zurl (Pushpin's requests to the app servers) as a child of this instance, not Debian's system
# service the package's internal.conf points at (/var/run/zurl: no init system here).
zurl_out_specs=ipc://{{rundir}}/{{ipc_prefix}}zurl-in
zurl_out_stream_specs=ipc://{{rundir}}/{{ipc_prefix}}zurl-in-stream
zurl_in_specs=ipc://{{rundir}}/{{ipc_prefix}}zurl-out
routesfile={folder / "routes"}
debug=false
auto_cross_origin=false
accept_x_forwarded_protocol=false
set_x_forwarded_protocol=proto-only
x_forwarded_for=
x_forwarded_for_trusted=
orig_headers_need_mark=
accept_pushpin_route=false
log_from=false
log_user_agent=false
sig_iss=pushpin
sig_key={key}
upstream_key=
updates_check=off

[handler]
push_in_spec=tcp://{HOST}:{ports["push_in"]}
push_in_sub_specs=tcp://{HOST}:{ports["push_sub"]}
push_in_sub_connect=false
push_in_http_addr={HOST}
push_in_http_port={ports["publish"]}
push_in_http_max_headers_size=10000
push_in_http_max_body_size=1000000
stats_spec=ipc://{{rundir}}/{{ipc_prefix}}stats
command_spec=tcp://{HOST}:{ports["command"]}
message_rate={MESSAGE_RATE}
message_hwm=200000
message_wait=5000
id_cache_ttl=60
connection_subscription_max=20
subscription_linger=60
stats_subscription_ttl=60
stats_report_interval=10
stats_format=tnetstring
"""
    (folder / "pushpin.conf").write_text(conf)
    # One route: everything to the app servers (the pages pass through; the displays' streams are
    # held). ``over_http`` is not needed: the displays are SSE, not WebSocket.
    (folder / "routes").write_text("* " + ",".join(upstreams) + "\n")
    return Instance(port=port, publish_port=ports["publish"], key=key, folder=folder)


def command(instance: Instance) -> list[str]:
    return ["pushpin", "--config", str(instance.folder / "pushpin.conf"), "--merge-output"]


def wait_ready(instance: Instance, timeout: float = 30) -> None:
    """Until Pushpin accepts connections on its port and its publish endpoint."""
    deadline = time.monotonic() + timeout
    for port in (instance.port, instance.publish_port):
        while True:
            try:
                with socket.create_connection((HOST, port), timeout=1):
                    break
            except OSError:
                if instance.proc is not None and instance.proc.poll() is not None:
                    raise RuntimeError(f"pushpin ended: {_log(instance)}") from None
                if time.monotonic() > deadline:
                    raise RuntimeError(f"pushpin did not start: {_log(instance)}") from None
                time.sleep(0.1)
    # Accepting connections is not yet proxying them (its handler and proxy start behind the
    # front): a first request can hang. Ready once a request through it gets the app's answer.
    while True:
        try:
            conn = http.client.HTTPConnection(HOST, instance.port, timeout=2)
            conn.request("GET", "/robots.txt")
            if conn.getresponse().status < 500:
                return
        except OSError:
            pass
        finally:
            conn.close()
        if instance.proc is not None and instance.proc.poll() is not None:
            raise RuntimeError(f"pushpin ended: {_log(instance)}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"pushpin proxies nothing: {_log(instance)}")
        time.sleep(0.2)


def _log(instance: Instance) -> str:
    path = instance.folder / "pushpin.out"
    return path.read_text(errors="replace")[-2000:] if path.exists() else ""


def stop(instance: Instance) -> None:
    proc = instance.proc
    if proc is None or proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    except ProcessLookupError:
        pass


def plan(*, port: int | None = None, key: str | None = None) -> Instance:
    """An instance's files in a new temporary folder, not started yet: its ``grip_url`` is known
    before the app servers behind it start (they need it), its routes are given to :func:`running`."""
    folder = Path(tempfile.mkdtemp(prefix="sotom-pushpin-"))
    return configure(folder, port or free_port(), ["127.0.0.1:9"], key=key)


@contextmanager
def running(instance: Instance, upstreams: Sequence[str]) -> Iterator[Instance]:
    """Run a planned instance in front of ``upstreams`` as a child (its own process group) until
    the block ends; then stop it and remove its folders."""
    (instance.folder / "routes").write_text("* " + ",".join(upstreams) + "\n")
    try:
        with (instance.folder / "pushpin.out").open("wb") as out:
            instance.proc = subprocess.Popen(
                command(instance),
                cwd=instance.folder,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_ready(instance)
        yield instance
    finally:
        stop(instance)
        rundir = next(
            (
                line.split("=", 1)[1]
                for line in (instance.folder / "pushpin.conf").read_text().splitlines()
                if line.startswith("rundir=")
            ),
            "",
        )
        shutil.rmtree(instance.folder, ignore_errors=True)
        if rundir:
            shutil.rmtree(rundir, ignore_errors=True)


def main(argv: list[str]) -> None:
    """``configure HOST PORT UPSTREAM[,UPSTREAM…] FOLDER``: write the instance's files into FOLDER and
    print its ``GRIP_URL`` (the key from ``PUSHPIN_SIG_KEY`` or made); ``run FOLDER``: run Pushpin
    on those files in the foreground (``exec``)."""
    if not (argv[:1] == ["configure"] and len(argv) == 5) and not (argv[:1] == ["run"] and len(argv) == 2):
        raise SystemExit(
            "usage: python -m totom_site.pushpin configure HOST PORT UPSTREAM[,UPSTREAM…] FOLDER\n"
            "       python -m totom_site.pushpin run FOLDER"
        )
    if not installed():
        raise SystemExit("Pushpin is not installed (Debian package: bash .ci/apt.sh pushpin)")
    if argv[0] == "configure":
        host, port, upstreams, folder = argv[1], int(argv[2]), argv[3].split(","), Path(argv[4]).resolve()
        found = configure(folder, port, upstreams, key=os.environ.get("PUSHPIN_SIG_KEY"), host=host)
        print(found.grip_url)
        return
    folder = Path(argv[1]).resolve()
    os.execvp("pushpin", ["pushpin", "--config", str(folder / "pushpin.conf"), "--merge-output"])


if __name__ == "__main__":
    main(sys.argv[1:])
