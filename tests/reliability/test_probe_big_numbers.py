"""Probe (issue 20, finding 2, the ledger's side): huge numbers cannot break a sitting for good.

The probe: a sitting opened with inline rules ``{"preset": "luat-2005", "cuoc": {"tom": {"main": 2**62}}}``
took 3 ván (201 each), then its detail, balances, history, page and exports answered 500 and
``manage.py ledger_check`` crashed with "integer overflow" (SQLite); with ``10**30`` every ván was a 500;
on PostgreSQL ``2**31`` did the same (the ledger's amounts were 32-bit).

Now (``scoring/services/ledger.py``): a ván is refused with a 400 before anything is written when its
points or one of its transfers exceed ``MAX_VAN_POINTS`` (10^9), or when it would take a balance, the
pool or the gà pot beyond ``MAX_BALANCE`` (10^12); ledger amounts are 64-bit (migration 0010); and
``ledger_check`` reports a ledger it cannot sum (written before the bounds) instead of crashing. (The
engine's own bounds on rule values are another change's; these tests hold whichever refuses first.)
Both databases: marked ``sqlite`` for the SQLite pass of ``make test``.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from rest_framework.authtoken.models import Token

from scoring.models import LedgerTransaction, Posting, Van
from scoring.services.ledger import MAX_BALANCE, MAX_VAN_POINTS
from scoring.services.sittings import sitting_settle_up
from tests.factories import FIVE, new_key, open_sitting, record_all
from tests.reliability.harness import figure

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

TOM = {"winner": "An", "cuoc": ["tom"]}


def _rules(main: int) -> dict[str, Any]:
    return {"preset": "luat-2005", "cuoc": {"tom": {"main": main}}}


def _stored_rules(main: int) -> Any:
    """A rule set beyond the engine's input bounds (docs/bounds.md: a cước's main value is at most
    100000), as only history written before those bounds holds one: read back unbounded, the way a
    stored snapshot is (``RuleSet.from_dict(bounded=False)``)."""
    from scoring.engine.rules import RuleSet, load_rules, merge_overrides

    spec = merge_overrides(load_rules("luat-2005").to_dict(), {"cuoc": {"tom": {"main": main}}})
    return RuleSet.from_dict(spec, bounded=False)


@pytest.fixture
def keeper_client(django_user_model: Any) -> tuple[Client, str]:
    user = django_user_model.objects.create_user("thu-ky-so-lon")
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client, Token.objects.create(user=user).key


def _post(client: Client, token: str, url: str, body: dict[str, Any]) -> Any:
    import json

    return client.post(
        url,
        json.dumps(body),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        HTTP_AUTHORIZATION=f"Token {token}",
    )


def _ledger_check(capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    try:
        call_command("ledger_check")
        status = 0
    except SystemExit as exc:
        status = int(exc.code or 0)
    return status, capsys.readouterr().out.strip().splitlines()


READS = [
    "/api/v1/sittings/{pk}",
    "/api/v1/sittings/{pk}/balances",
    "/api/v1/sittings/{pk}/history",
    "/api/v1/sittings/{pk}/van",
    "/so-diem/{pk}/",
    "/so-diem/{pk}/in-xuat/",
    "/so-diem/{pk}/xuat/so-cai.csv",
    "/so-diem/{pk}/xuat/so-cai.xlsx",
    "/so-diem/{pk}/xuat/cac-van.csv",
    "/so-diem/{pk}/bieu-do.json",
    "/so-diem/{pk}/xuat/sao-ke/1.csv",
    "/so-diem/{pk}/bao-cao.pdf",
]


@pytest.mark.parametrize(
    "main", [2**62, 10**30, 2**31, MAX_VAN_POINTS + 1], ids=["2^62", "10^30", "2^31", "10^9+1"]
)
def test_the_probes_sitting_never_breaks(
    main: int, keeper_client: tuple[Client, str], capsys: pytest.CaptureFixture[str]
) -> None:
    client, token = keeper_client
    opened = _post(
        client,
        token,
        "/api/v1/sittings",
        {"game": "to-tom-5", "rules": _rules(main), "mode": "quang", "players": list(FIVE)},
    )
    assert opened.status_code in (201, 400), opened.content
    if opened.status_code == 400:  # refused at the door (the body's parser or the engine's bounds)
        assert opened.json()["error"]
        assert _ledger_check(capsys)[0] == 0
        return
    pk = opened.json()["id"]
    attempts, failures = 0, []
    for attempt in (1, 2, 3):  # the probe's three ván; each refused, so each is ván 1 again
        for url in (f"/api/v1/sittings/{pk}/van", f"/api/v1/sittings/{pk}/van/preview"):
            attempts += 1
            answer = _post(client, token, url, {"seq": 1, **TOM})
            if answer.status_code != 400 or "vượt giới hạn" not in answer.json().get("error", ""):
                failures.append(f"{url} attempt {attempt}: {answer.status_code} {answer.content[:200]!r}")
    assert (
        not Van.objects.filter(sitting_id=pk).exists()
        and not LedgerTransaction.objects.filter(sitting_id=pk).exists()
    )
    # Every read of the sitting still answers.
    for url in READS:
        attempts += 1
        answer = client.get(url.format(pk=pk))
        if answer.status_code != 200:
            failures.append(f"GET {url}: {answer.status_code}")
    # The sitting still plays: a ván within the bounds is recorded.
    attempts += 1
    ok = _post(client, token, f"/api/v1/sittings/{pk}/van", {"seq": 1, "winner": "Bình", "cuoc": ["chi_nay"]})
    if ok.status_code != 201:
        failures.append(f"a ván within the bounds: {ok.status_code} {ok.content[:200]!r}")
    status, lines = _ledger_check(capsys)
    figure(f"tom main {main}: requests / not as expected", f"{attempts} / {len(failures)}")
    assert not failures, "\n".join(failures)
    assert status == 0, lines


def test_balances_beyond_32_bits_are_kept_exactly_and_settle_up(capsys: pytest.CaptureFixture[str]) -> None:
    # Three ván worth 9 × 10^8 each: every other player owes An about 2.7 × 10^9 (> 2^31), which
    # settling up posts as single postings. The 32-bit ledger of PostgreSQL could not hold them.
    sitting = open_sitting(rules=_stored_rules(900_000_000))
    record_all(sitting, [TOM] * 3)
    sitting_settle_up(sitting=sitting, settled_by=None, idempotency_key=new_key())
    biggest = max(abs(p) for p in Posting.objects.filter(sitting=sitting).values_list("amount", flat=True))
    assert 2**31 < biggest < MAX_BALANCE
    status, lines = _ledger_check(capsys)
    assert status == 0, lines


def test_a_van_that_would_take_a_balance_beyond_the_bound_is_refused_before_anything_is_written() -> None:
    from scoring.services.ledger import AmountOutOfRange
    from scoring.services.sittings import van_record

    # Each ván: An wins just under 10^9 (the most a ván may be worth) from each of four players.
    sitting = open_sitting(rules=_stored_rules(MAX_VAN_POINTS - 1_000_000))
    refused = None
    for seq in range(1, 300):
        written = (Van.objects.count(), Posting.objects.count())
        try:
            van_record(sitting=sitting, seq=seq, record=TOM, idempotency_key=new_key())
        except AmountOutOfRange as exc:
            refused = (seq, exc.message)
            break
    assert refused is not None and "số dư của An" in refused[1], refused
    assert (Van.objects.count(), Posting.objects.count()) == written
    from scoring.selectors.ledger import balances

    kept = balances(sitting).players["An"]
    assert MAX_BALANCE - 4 * MAX_VAN_POINTS < kept <= MAX_BALANCE
    figure("ván recorded before the balance bound refused one", refused[0] - 1)


def test_ledger_check_reports_a_ledger_it_cannot_sum_instead_of_crashing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A ledger written before the bounds were checked: three balanced transactions moving 2^62 from
    # Bình to An (the database takes them: each sums to zero). On SQLite An's balance is a sum
    # beyond 64 bits.
    sitting = open_sitting()
    an, binh = sitting.seats.get(name="An"), sitting.seats.get(name="Bình")
    with transaction.atomic():
        for _ in range(3):
            txn = LedgerTransaction.objects.create(sitting=sitting, kind="van", reason="cũ")
            Posting.objects.bulk_create(
                [
                    Posting(
                        transaction=txn,
                        sitting=sitting,
                        account="player",
                        seat=binh,
                        amount=-(2**62),
                        line=1,
                        why="x",
                    ),
                    Posting(
                        transaction=txn,
                        sitting=sitting,
                        account="player",
                        seat=an,
                        amount=2**62,
                        line=1,
                        why="x",
                    ),
                ]
            )
    clean = open_sitting()
    record_all(clean, [TOM])
    status, lines = _ledger_check(capsys)
    assert status == 1
    beyond = [line for line in lines if "vượt giới hạn" in line and "dòng bút toán" in line]
    assert len(beyond) == 6 and all(f"Canh bài #{sitting.pk}" in line for line in beyond), lines
    assert not any(f"Canh bài #{clean.pk}" in line for line in lines[:-1]), lines
    assert lines[-1].startswith("ledger_check: 2 canh bài")
