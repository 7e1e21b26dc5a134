"""Smoke checks against a server started by .ci/smoke.sh on the embedded default (through `make
run`'s own script, which migrates and loads the demo before it serves: allow it a while)."""

from __future__ import annotations

import json
import os
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
base = sys.argv[1]
checks: list[tuple[str, bool]] = []


def fetch(path: str, body: object | None = None) -> tuple[int, str]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


deadline = time.monotonic() + 240
while True:
    try:
        fetch("/")
        break
    except OSError:
        if time.monotonic() > deadline:
            print("smoke: the server did not answer within 240 s")
            sys.exit(1)
        time.sleep(0.5)

status, page = fetch("/")
checks.append(
    ("trang Tính điểm bằng tiếng Việt", status == 200 and "Tính điểm" in page and "Cước sắc" in page)
)
status, page = fetch("/le-lang/")
checks.append(("trang Lệ làng", status == 200 and "Lệ làng" in page))
status, page = fetch("/so-diem/")  # the sổ điểm asks a visitor to sign in (urllib follows the redirect)
checks.append(("sổ điểm đưa khách tới trang đăng nhập", status == 200 and 'data-testid="login-form"' in page))
status, page = fetch("/giai/hoi-lang-dong-ngac/")
checks.append(("hội làng mẫu", status == 200 and "Hội làng Đông Ngạc" in page))
# Its leaderboard: queued by the demo's ván, computed by the worker on the filesystem broker.
board_by = time.monotonic() + 60
while "data-player=" not in page and time.monotonic() < board_by:
    time.sleep(1)
    status, page = fetch("/giai/hoi-lang-dong-ngac/")
checks.append(
    (
        "bảng xếp hạng của hội làng mẫu do Celery worker tính",
        status == 200 and "Cụ Đồ" in page and "data-player=" in page,
    )
)
status, page = fetch("/static/css/sotom.css")
checks.append(("tài nguyên tĩnh phục vụ tại chỗ", status == 200))
req = {"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["xuyen_bi_tu", "thap_dieu", "chi_nay"]}
status, body = fetch("/api/v1/score", req)
checks.append(("API score = 46", status == 200 and json.loads(body).get("points") == 46))

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "totom_site.settings")
import django  # noqa: E402

django.setup()
from totom_site.celery import app  # noqa: E402

# A worker answers a ping over the broker (kombu's filesystem transport carries broadcasts in its
# control folder): no result backend needed. That the worker reaches the database is shown above,
# by the leaderboard it computed.
try:
    replies = app.control.ping(timeout=10)
    print(f"celery ping: {replies}")
    checks.append(("Celery worker trả lời ping qua broker filesystem", any(replies)))
except Exception as exc:  # noqa: BLE001 - reported as a failed check
    print(f"celery: {exc!r}")
    checks.append(("Celery worker trả lời ping qua broker filesystem", False))

for name, ok in checks:
    print(f"  smoke {'ok  ' if ok else 'FAIL'} {name}")
failed = sum(not ok for _, ok in checks)
print(f"smoke: {len(checks) - failed} ok, {failed} failed")
sys.exit(1 if failed else 0)
