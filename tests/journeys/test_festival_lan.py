"""The festival's LAN as phones meet it: `make run HOST=0.0.0.0` on the embedded default (SQLite
file, Celery on the filesystem broker), reached by a name that is not this machine's
(``festival.lan``, which this Chromium maps to 127.0.0.1 as a village's Wi-Fi router would map it to
the club laptop), so the origin is what phones get: ``http://festival.lan:PORT/`` is **not** a
secure context (no service worker), ``https://festival.lan:HTTPS_PORT/`` is, once the phone trusts
the laptop's own CA (``totom_site/tls.py``, offered on ``/mang-noi-bo/``).

* On plain HTTP: no page logs a header it ignores (``Cross-Origin-Opener-Policy``); a ván recorded
  offline waits in the page's outbox; a reload while offline cannot bring the page back (nothing
  serves it: Chromium's error page), but the ván is still kept on the phone and sent once when the
  page is opened again with the network.
* On the LAN's HTTPS, after checking the certificate the page offers against what the listener
  presents: the service worker registers, a ván recorded offline survives a reload offline (the page
  comes back from the worker), and is sent exactly once on reconnect (one ván in the ledger).

Chromium is told to trust the test CA with ``--ignore-certificate-errors-spki-list`` (as a phone
trusts it once installed); that the chain really verifies for ``festival.lan`` against the CA the
page hands out is checked separately, with Python's own TLS client.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import socket
import sqlite3
import ssl
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.journeys import stack as stacks
from tests.journeys.browsing import PHONE, Screens
from tests.journeys.test_scorekeeper import OFFLINE, OFFLINE_ERRORS, fill, open_canh, sign_in_on_the_way
from tests.subprocesses import free_port
from totom_site.tls import spki_hash

pytestmark = [pytest.mark.browser]

NAME = "festival.lan"
#: What Chromium says of a header the origin cannot honour (COOP on an untrustworthy origin…).
IGNORED_HEADER = re.compile(r"has been ignored|untrustworthy|Cross-Origin-Opener-Policy", re.I)


@dataclass
class Lan:
    """The stack served on the LAN: its plain-HTTP URL (stack.url), its HTTPS port, its CA."""

    stack: stacks.Stack
    https_port: int
    tls: Path

    @property
    def url(self) -> str:
        return self.stack.url

    @property
    def https(self) -> str:
        return f"https://{NAME}:{self.https_port}"

    @property
    def database(self) -> Path:
        return self.stack.folder / "sotom.sqlite3"


@pytest.fixture(scope="module", params=["sqlite"])
def lan(request: pytest.FixtureRequest) -> Iterator[Lan]:
    """`make run HOST=0.0.0.0` on the embedded default, answering ``festival.lan`` (set as the
    README says a festival's own name is set: DJANGO_ALLOWED_HOSTS), its CA in a folder of its own.
    (One configuration, the one `make run` is; its id names it in the journeys' summary.)"""
    https_port = free_port()
    tls = Path(tempfile.mkdtemp(prefix="sotom-lan-tls-"))
    env = {
        "DJANGO_ALLOWED_HOSTS": f"{NAME},localhost,127.0.0.1",
        "SOTOM_HTTPS_PORT": str(https_port),
        "SOTOM_TLS_DIR": str(tls),
    }
    stack = stacks.start(request.param, bind="0.0.0.0", name=NAME, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:  # the listener starts with the server; wait for it all the same
            try:
                socket.create_connection(("127.0.0.1", https_port), timeout=2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)
        yield Lan(stack, https_port, tls)
    finally:
        stacks.stop(stack)
        shutil.rmtree(tls, ignore_errors=True)


@pytest.fixture(scope="module")
def lan_browser(browser: Any, lan: Lan) -> Iterator[Any]:
    """A Chromium that resolves festival.lan to this machine and trusts the stack's CA (as a phone
    does once the CA is installed)."""
    ca = (lan.tls / "ca.pem").read_bytes()
    chromium = browser.browser_type.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=[
            *CHROMIUM_ARGS,
            f"--host-resolver-rules=MAP {NAME} 127.0.0.1",
            f"--ignore-certificate-errors-spki-list={spki_hash(ca)}",
        ],
    )
    yield chromium
    chromium.close()


@pytest.fixture
def people(lan_browser: Any, lan: Lan) -> Iterator[tuple[Screens, list[str]]]:
    """The journey's browsers (failing on any console error) and every console message they logged."""
    screens = Screens(lan_browser, lan.stack)
    logged: list[str] = []
    original = screens._watch

    def watch(page: Any) -> None:
        original(page)
        page.on("console", lambda msg: logged.append(f"{msg.type}: {msg.text}"))

    screens._watch = watch  # type: ignore[method-assign]
    expect.set_options(timeout=10_000)
    try:
        yield screens, logged
        screens.check()
    finally:
        expect.set_options(timeout=5_000)
        screens.close()


def van_in_ledger(lan: Lan, sitting: int) -> list[tuple[int, dict[str, Any]]]:
    """The ván of the sitting as the server's own SQLite file holds them (seq, record)."""
    with sqlite3.connect(f"file:{lan.database}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT seq, record FROM scoring_van WHERE sitting_id = ? ORDER BY seq, id", (sitting,)
        ).fetchall()
    return [(seq, json.loads(record)) for seq, record in rows]


def sitting_of(url: str) -> int:
    found = re.search(r"/so-diem/(\d+)/$", url)
    assert found, url
    return int(found[1])


def test_plain_http_on_the_lan_logs_no_ignored_header_and_keeps_a_van_through_a_failed_reload(
    lan: Lan, people: tuple[Screens, list[str]]
) -> None:
    screens, logged = people
    phone = screens.open(PHONE, service_workers="allow")
    sign_in_on_the_way(phone, lan.url)
    assert phone.evaluate("window.isSecureContext") is False  # what phones on the LAN get
    assert phone.evaluate("'serviceWorker' in navigator") is False
    url = open_canh(phone)
    sitting = sitting_of(url)
    response = phone.goto(url)
    assert response is not None and "cross-origin-opener-policy" not in response.headers
    # The sổ điểm says what a reload offline would cost here, and where to go instead.
    expect(phone.get_by_test_id("lan-hint")).to_contain_text("đừng tải lại")
    phone.get_by_test_id("net-indicator").wait_for()

    with screens.allowing(OFFLINE_ERRORS):
        phone.context.set_offline(True)
        phone.get_by_test_id("net-indicator").filter(has_text="Mất mạng").wait_for()
        fill(phone, OFFLINE)
        phone.get_by_test_id("save").click()
        expect(phone.get_by_test_id("outbox-item")).to_have_count(1)
        # Nothing serves an http page with no network: the reload is Chromium's error page.
        with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
            phone.reload()
        assert van_in_ledger(lan, sitting) == []
        phone.context.set_offline(False)
        phone.goto(url)  # opened again with the network: the outbox (IndexedDB) sends what it kept
        phone.wait_for_selector("#sitting[data-next-seq='2']", state="attached", timeout=30_000)
    expect(phone.get_by_test_id("outbox-item")).to_have_count(0)
    phone.goto(url)
    expect(phone.locator("[data-testid=van-list] li.van")).to_have_count(1)
    assert van_in_ledger(lan, sitting) == [(1, OFFLINE)]

    # The organiser's page for the LAN says what works here and offers the way to HTTPS.
    phone.goto(lan.url + "/mang-noi-bo/")
    expect(phone.get_by_test_id("lan-plain")).to_contain_text("HTTP thường")
    expect(phone.get_by_test_id("lan-https")).to_have_text(f"{lan.https}/so-diem/")
    assert not [m for m in logged if IGNORED_HEADER.search(m)], logged


def _presented_chain_verifies(lan: Lan, ca: bytes) -> str:
    """Python's TLS client, trusting only ``ca``, connects to the listener as festival.lan; the
    answer's status line."""
    context = ssl.create_default_context(cadata=ca.decode("ascii"))
    with (
        socket.create_connection(("127.0.0.1", lan.https_port), timeout=10) as raw,
        context.wrap_socket(raw, server_hostname=NAME) as tls,
    ):
        tls.sendall(f"GET /mang-noi-bo/ HTTP/1.1\r\nHost: {NAME}:{lan.https_port}\r\n\r\n".encode())
        return tls.recv(200).split(b"\r\n", 1)[0].decode()


def test_on_the_lans_https_a_van_recorded_offline_survives_a_reload_and_is_sent_once(
    lan: Lan, people: tuple[Screens, list[str]]
) -> None:
    screens, logged = people
    phone = screens.open(PHONE, service_workers="allow")

    # The organiser's page on plain HTTP hands out the CA; it is the one the listener's chain ends in.
    phone.goto(lan.url + "/mang-noi-bo/")
    shown = phone.get_by_test_id("lan-fingerprint").inner_text()
    with phone.expect_download() as downloading:
        phone.get_by_test_id("lan-ca").click()
    download = downloading.value
    assert download.suggested_filename == "so-tom-ca.crt"
    der = Path(download.path()).read_bytes()
    fingerprint = hashlib.sha256(der).hexdigest().upper()
    assert ":".join(fingerprint[i : i + 2] for i in range(0, 64, 2)) in shown
    ca = ssl.DER_cert_to_PEM_cert(der).encode()
    assert _presented_chain_verifies(lan, ca) == "HTTP/1.1 200 OK"
    phone.get_by_test_id("lan-https").click()

    sign_in_on_the_way(phone, lan.https)
    assert phone.evaluate("window.isSecureContext") is True
    url = open_canh(phone)
    sitting = sitting_of(url)
    assert url.startswith(lan.https)
    response = phone.goto(url)
    assert response is not None and response.headers.get("cross-origin-opener-policy") == "same-origin"
    phone.wait_for_selector("html[data-offline-ready='1']", state="attached", timeout=30_000)
    assert phone.evaluate("navigator.serviceWorker.controller !== null")
    expect(phone.get_by_test_id("lan-hint")).to_have_count(0)  # nothing to warn of on HTTPS

    with screens.allowing(OFFLINE_ERRORS):
        phone.context.set_offline(True)
        phone.get_by_test_id("net-indicator").filter(has_text="Mất mạng").wait_for()
        fill(phone, OFFLINE)
        phone.get_by_test_id("save").click()
        expect(phone.get_by_test_id("outbox-item")).to_have_count(1)

        # Reloaded with no network: the page comes back from the service worker, the ván waiting.
        reloaded = phone.reload()
        assert reloaded is not None and reloaded.from_service_worker
        expect(phone.get_by_test_id("outbox-item")).to_have_count(1)
        expect(phone.get_by_test_id("net-indicator")).to_have_attribute("data-state", "offline")
        assert van_in_ledger(lan, sitting) == []

        phone.context.set_offline(False)
        phone.wait_for_selector("#sitting[data-next-seq='2']", state="attached", timeout=30_000)
        expect(phone.get_by_test_id("net-indicator")).to_have_attribute(
            "data-state", "online", timeout=15_000
        )
    expect(phone.get_by_test_id("outbox-item")).to_have_count(0)
    phone.wait_for_timeout(1000)  # anything sent twice would be in by now
    assert van_in_ledger(lan, sitting) == [(1, OFFLINE)]
    phone.goto(url)
    expect(phone.locator("[data-testid=van-list] li.van")).to_have_count(1)
    assert not [m for m in logged if IGNORED_HEADER.search(m)], logged
