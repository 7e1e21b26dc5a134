"""A webhook receiver on 127.0.0.1 (a real HTTP server in a thread): it keeps every request it gets
(headers and the exact body bytes) and answers the statuses it is told to, then 200."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float


class Receiver:
    def __init__(self, statuses: list[int] | None = None) -> None:
        self.requests: list[Received] = []
        self.statuses = list(statuses or [])
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                with receiver.lock:
                    receiver.requests.append(
                        Received(self.path, dict(self.headers.items()), body, time.time())
                    )
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/hook"

    def of_type(self, kind: str) -> list[Received]:
        with self.lock:
            return [r for r in self.requests if r.headers.get("X-SoTom-Event") == kind]

    def wait_for(self, check: Callable[[Receiver], Any], timeout: float = 30.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = check(self)
            if value or time.monotonic() > deadline:
                return value
            time.sleep(0.1)

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class BadReceiver:
    """A receiver on 127.0.0.1 that misbehaves, on a plain socket (not http.server, which would
    answer properly): it reads the request, then

    * ``drip``: sends its answer one byte every ``every`` seconds (a whole answer, given time);
    * ``silent``: never answers (keeps the connection open);
    * ``huge``: answers 200 with a body of ``size`` bytes (10 MB), as fast as it can be read;
    * ``slow-body``: sends a 202's head at once, then its body one byte every ``every`` seconds.

    ``sent`` counts the bytes it got out (up to the moment the client hung up); ``requests`` the
    requests it read."""

    ANSWER = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"

    def __init__(self, mode: str, *, every: float = 0.25, size: int = 10 * 1024 * 1024) -> None:
        import socket

        self.mode, self.every, self.size = mode, every, size
        self.sent = 0
        self.requests = 0
        self.accepted = 0
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.threads: list[threading.Thread] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.getsockname()[1]}/hook"

    def _serve(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            with self.lock:
                self.accepted += 1
            worker = threading.Thread(target=self._answer, args=(conn,), daemon=True)
            worker.start()
            self.threads.append(worker)

    def _read_request(self, conn: Any) -> None:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(65536)
            if not chunk:
                return
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(
            next(
                line.split(b":")[1]
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length")
            )
        )
        while len(body) < length:
            body += conn.recv(65536)
        with self.lock:
            self.requests += 1

    def _out(self, conn: Any, data: bytes) -> None:
        conn.sendall(data)
        self.sent += len(data)

    def _answer(self, conn: Any) -> None:
        try:
            conn.settimeout(30)
            self._read_request(conn)
            if self.mode == "drip":
                for byte in self.ANSWER:
                    if self.stopping.wait(self.every):
                        return
                    self._out(conn, bytes([byte]))
            elif self.mode == "silent":
                self.stopping.wait(60)
            elif self.mode == "huge":
                self._out(conn, f"HTTP/1.1 200 OK\r\nContent-Length: {self.size}\r\n\r\n".encode())
                block = b"x" * 65536
                for _ in range(self.size // len(block)):
                    self._out(conn, block)
            elif self.mode == "slow-body":
                self._out(conn, b"HTTP/1.1 202 Accepted\r\nContent-Length: 100\r\n\r\n")
                for _ in range(100):
                    if self.stopping.wait(self.every):
                        return
                    self._out(conn, b"x")
        except OSError:
            return  # the client hung up: what it did not read was never sent
        finally:
            conn.close()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)
        self.server.close()
