"""Acceptance (issue 25): an online hội played end to end through the API alone.

The organiser connects a platform on the event's page (a write token and a webhook, each shown
once). Then, with nothing but the token: the platform registers and checks in ten players, seats
round 1, is refused round 2 while the tables play, imports each table's whole sitting, and reads
the standings once the real Celery worker has recomputed them. The standings equal the engine's
replay of the imports and what the scoreboard page shows; the receiver on 127.0.0.1 got the
signed webhooks (round seated, each import as one ván.recorded, standings changed up to the
version read, event finished), each verified with the recipe of docs/api.md.

Runs on PostgreSQL + Redis and, in `make test`'s SQLite pass, on a SQLite file with kombu's
filesystem broker (``make run``'s configuration).
"""

from __future__ import annotations

import json
import re
import time
import uuid
from typing import Any

import pytest
from django.test import Client

from scoring.engine.settlement import replay
from scoring.services.rules import resolve_rules
from tests.online.conftest import PLAYERS
from tests.online.receiver import Receiver
from tests.online.test_webhooks import verify
from tournaments.online.models import DeliveryStatus, WebhookDelivery

pytestmark = [pytest.mark.sqlite, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

#: Each table's canh, as the online platform played it (names are filled in from the seats).
PLAYED = [
    [
        {"winner": 0, "cuoc": ["tom"], "discarder": 1},
        {"winner": 2, "cuoc": ["chi_nay"]},
        {"result": "hoa"},
        {"winner": 3, "cuoc": ["tom", "leo"], "discarder": 4},
        {"winner": 0, "cuoc": ["tom"]},
    ],
    [
        {"winner": 4, "cuoc": ["leo"]},
        {"winner": 1, "cuoc": ["tom"], "discarder": 2},
        {"winner": 1, "cuoc": ["tom"]},
        {"result": "hoa"},
        {"winner": 3, "cuoc": ["chi_nay"], "discarder": 0},
    ],
]
ROW = re.compile(
    r'<tr data-player="(\d+)"[^>]*>\s*<td class="rank">(\d+).*?<strong class="name">([^<]+)</strong>'
    r'.*?<td class="num points">(-?\d+)</td>',
    re.S,
)


def named(van: dict[str, Any], seats: list[str]) -> dict[str, Any]:
    return {k: seats[v] if k in ("winner", "discarder") else v for k, v in van.items()}


def wait_for(check: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    value = check()
    while not value and time.monotonic() < deadline:
        time.sleep(0.2)
        value = check()
    assert value, f"timed out after {timeout} s"
    return value


def test_an_online_hoi_end_to_end_through_the_api(
    online_worker: Any, make_event: Any, organiser: Any, webhook_settings: Any, receiver: Receiver
) -> None:
    event = make_event(players=0, name="Hội Xuân trực tuyến", van_per_round=8)
    slug = event.slug
    receiver.statuses.append(503)  # the first delivery fails once: the worker sends it again a second later

    # The organiser connects the platform on the event's page: both secrets are shown once.
    page = Client()
    page.force_login(organiser)
    made = page.post(f"/giai/{slug}/quan-ly/ket-noi/ma/", {"label": "Chiếu Online", "access": "ghi"})
    assert made.status_code == 201
    token = re.search(r'data-testid="token-value">([^<]+)<', made.content.decode()).group(1)
    hooked = page.post(
        f"/giai/{slug}/quan-ly/ket-noi/webhook/",
        {
            "url": receiver.url,
            "events": ["van.recorded", "standings.changed", "round.seated", "event.finished"],
        },
    )
    assert hooked.status_code == 201, hooked.content.decode()[-2000:]
    secret = re.search(r'data-testid="secret-value">([^<]+)<', hooked.content.decode()).group(1)
    assert token not in page.get(f"/giai/{slug}/quan-ly/ket-noi/").content.decode()

    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")

    def post(path: str, body: dict[str, Any]) -> Any:
        return api.post(
            path, json.dumps(body), content_type="application/json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4())
        )

    for name, team in PLAYERS:
        registered = post(
            f"/api/v1/events/{slug}/registrations", {"name": name, "team": team, "check_in": True}
        )
        assert registered.status_code == 201, registered.content
    seated = post(f"/api/v1/events/{slug}/rounds", {"method": "random", "seed": 7})
    assert seated.status_code == 201, seated.content
    tables = api.get(f"/api/v1/events/{slug}/tables?round=1").json()
    assert len(tables) == 2 and all(len(t["seats"]) == 5 for t in tables)
    early = post(f"/api/v1/events/{slug}/rounds", {"method": "rotation"})
    assert early.status_code == 409 and [t["id"] for t in early.json()["tables"]] == [t["id"] for t in tables]

    expected: dict[str, int] = {}
    imported = []
    for table, played in zip(tables, PLAYED, strict=True):
        seats = [s["name"] for s in table["seats"]]
        request = {
            "game": "to-tom-5",
            "rules": "luat-2005",
            "mode": "quang",
            "players": seats,
            "van": [named(v, seats) for v in played],
        }
        answer = post("/api/v1/sittings/import", {**request, "table": table["id"], "event": slug})
        assert answer.status_code == 201, answer.content
        engine = replay(request, resolve_rules=resolve_rules)
        assert (
            answer.json()["balances"] == engine["balances"]
            and answer.json()["sitting_id"] == table["sitting_id"]
        )
        for name, points in engine["balances"].items():
            expected[name] = expected.get(name, 0) + points
        imported.append(answer.json())

    def fresh() -> dict[str, Any] | None:
        board = api.get(f"/api/v1/events/{slug}/standings").json()
        return board if not board["pending"] and board["van_count"] == 10 else None

    board = wait_for(fresh)
    assert board["provisional"] is True and board["count_confirmed_only"] is False
    assert board["ledger_seq"] == board["event_ledger_seq"] and board["computed_at"]
    assert {r["name"]: r["points"] for r in board["rows"]} == expected
    assert [r["rank"] for r in board["rows"]] == sorted(r["rank"] for r in board["rows"])

    shown = ROW.findall(Client().get(f"/giai/{slug}/bang-day-du/").content.decode())
    assert [(int(key), int(rank), name, int(points)) for key, rank, name, points in shown] == [
        (r["key"], r["rank"], r["name"], r["points"]) for r in board["rows"]
    ]

    done = page.post(f"/giai/{slug}/quan-ly/ket-thuc/")
    assert done.status_code == 302

    def heard(kind: str) -> list[dict[str, Any]]:
        """Each delivery of ``kind`` once (a receiver drops a repeated X-SoTom-Delivery, as docs/api.md says)."""
        seen = {r.headers["X-SoTom-Delivery"]: json.loads(r.body) for r in receiver.of_type(kind)}
        return list(seen.values())

    def sent_again() -> bool:
        """The refused first delivery came again (the worker's retry is due WEBHOOK_RETRY_SECONDS after the
        503, less its jitter, but a busy worker may take longer: the board and the other deliveries can all be in before it)."""
        first = receiver.requests[0].headers["X-SoTom-Delivery"]
        return [r.headers["X-SoTom-Delivery"] for r in list(receiver.requests)].count(first) > 1

    wait_for(
        lambda: (
            heard("event.finished")
            and any(b["data"]["version"] == board["version"] for b in heard("standings.changed"))
            and sent_again()
        )
    )
    for got in receiver.requests:
        assert verify(secret, got.headers, got.body), got.headers
    [round_seated] = heard("round.seated")
    assert [t["id"] for t in round_seated["data"]["tables"]] == [t["id"] for t in tables]
    recorded = sorted(heard("van.recorded"), key=lambda b: b["data"]["table_id"])
    assert [
        (b["data"]["imported"], b["data"]["table_id"], [v["seq"] for v in b["data"]["van"]]) for b in recorded
    ] == [(True, t["id"], [1, 2, 3, 4, 5]) for t in sorted(tables, key=lambda t: t["id"])]
    assert {b["data"]["sitting_id"] for b in recorded} == {a["sitting_id"] for a in imported}
    assert all(b["event"] == slug for b in heard("standings.changed"))
    sent: dict[str, list[float]] = {}
    for got in receiver.requests:
        sent.setdefault(got.headers["X-SoTom-Delivery"], []).append(got.at)
    [(again, times)] = [
        (uuid_, at) for uuid_, at in sent.items() if len(at) > 1
    ]  # only the refused one, twice
    assert receiver.requests[0].headers["X-SoTom-Delivery"] == again and len(times) == 2
    assert times[1] - times[0] >= 0.45  # after WEBHOOK_RETRY_SECONDS, of which a random half to the whole
    retried = WebhookDelivery.objects.get(uuid=again)
    assert (retried.status, retried.attempts, retried.response_code) == (DeliveryStatus.DELIVERED, 2, 200)
    log = page.get(f"/giai/{slug}/quan-ly/ket-noi/webhook/{retried.webhook_id}/").content.decode()
    assert f'data-delivery="{retried.pk}" data-status="da_gui"' in log and "2 lần gửi" in log
