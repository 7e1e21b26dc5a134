"""The ván path writes the same rows on plain SQL (scoring/services/rows.py) as on the ORM.

One canh is played through the API twice, the second time inside ``rows.on_the_orm()`` (every
read and write of ``rows`` through the ORM, as before the module): ván recorded (a hội closed by a
Kính Tứ Cố hết hội, a new one opened), a replayed request, a correction that re-posts the later
ván, then the settle-up. The rows each run leaves (the sitting and its snapshot, seats, ván and
their versions, ledger transactions and postings, idempotency answers) are compared, with ids
replaced by their place in the run and times left out.
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import models
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import (
    ClubRole,
    ClubRoleKind,
    IdempotencyKey,
    LedgerTransaction,
    Posting,
    Seat,
    Sitting,
    Van,
)
from scoring.services import rows
from tests.factories import ClubFactory, UserFactory, open_sitting

pytestmark = pytest.mark.django_db

FIVE = ["An", "Bình", "Chi", "Dũng", "Em"]
RULES = {"preset": "luat-2005", "kinh_tu_co_policy": "het_hoi", "gom": 10}


def _play(client: APIClient, sitting: Sitting, run: str) -> list[tuple[int, Any]]:
    pk = sitting.pk
    answers = []

    def post(url: str, body: dict[str, Any], key: str) -> None:
        response = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"{run}-{key}")
        answers.append((response.status_code, _strip(response.json(), pk)))

    van = f"/api/v1/sittings/{pk}/van"
    post(van, {"seq": 1, "winner": "Bình", "cuoc": ["tom"]}, "1")
    post(van, {"seq": 1, "winner": "Bình", "cuoc": ["tom"]}, "1")  # replayed: the same answer
    post(van, {"seq": 2, "winner": "An", "cuoc": ["kinh_tu_co"]}, "2")  # takes the pool: hết hội
    post(van, {"seq": 3, "result": "hoa"}, "3")  # a new hội opens
    post(van, {"seq": 4, "winner": "Chi", "cuoc": ["leo", "chi_nay"]}, "4")
    post(f"{van}/1/correct", {"winner": "Dũng", "cuoc": ["tom"], "reason": "nhầm người ù"}, "c1")
    post(van, {"seq": 5, "winner": "Chi", "cuoc": ["tom"], "ga": [{"kind": "nhai", "player": "Em"}]}, "5")
    post(f"/api/v1/sittings/{pk}/settle-up", {}, "end")
    return answers


def _strip(body: Any, pk: int) -> Any:
    """An answer without what differs between runs by nature (ids, times)."""
    if isinstance(body, dict):
        return {
            k: _strip(v, pk)
            for k, v in body.items()
            if k not in {"id", "sitting", "replaces", "created_at", "at"}
        }
    if isinstance(body, list):
        return [_strip(v, pk) for v in body]
    return body


def _dump(sitting: Sitting) -> dict[str, list[dict[str, Any]]]:
    """The sitting's rows, ids replaced by (table, place in the run), times left out."""
    tables: dict[type[models.Model], list[models.Model]] = {
        Sitting: [Sitting.objects.get(pk=sitting.pk)],
        Seat: list(Seat.objects.filter(sitting=sitting).order_by("pk")),
        Van: list(Van.objects.filter(sitting=sitting).order_by("pk")),
        LedgerTransaction: list(LedgerTransaction.objects.filter(sitting=sitting).order_by("pk")),
        Posting: list(Posting.objects.filter(sitting=sitting).order_by("pk")),
    }
    place = {(m, obj.pk): (m.__name__, i) for m, objs in tables.items() for i, obj in enumerate(objs)}
    out: dict[str, list[dict[str, Any]]] = {}
    for model, objs in tables.items():
        out[model.__name__] = []
        for obj in objs:
            row: dict[str, Any] = {}
            for field in model._meta.concrete_fields:
                value = getattr(obj, field.attname)
                if isinstance(value, datetime.datetime):
                    value = value is not None  # when it happened differs; whether it did does not
                elif field.primary_key:
                    value = place[(model, value)]
                elif field.is_relation and field.related_model in tables and value is not None:
                    value = place[(field.related_model, value)]
                row[field.attname] = value
            out[model.__name__].append(row)
    snapshot = out["Sitting"][0]["state_snapshot"]
    count, newest = snapshot["key"]
    snapshot["key"] = [count, place[(Van, newest)]]
    snapshot["seats"] = [[place[(Seat, s[0])], *s[1:]] for s in snapshot["seats"]]
    return out


def test_the_van_path_writes_the_same_rows_on_plain_sql_and_on_the_orm(
    django_capture_on_commit_callbacks: Any,
) -> None:
    keeper = UserFactory(username="thu-ky-hai-cach")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=keeper).key}")
    club = ClubFactory()
    ClubRole.objects.create(user=keeper, club=club, role=ClubRoleKind.SCOREKEEPER)
    plays = {}
    for run in ("sql", "orm"):
        sitting = open_sitting(club=club, created_by=keeper, mode="gom", rules=RULES, title="Canh")
        with django_capture_on_commit_callbacks(execute=True):
            if run == "orm":
                with rows.on_the_orm():
                    answers = _play(client, sitting, run)
            else:
                answers = _play(client, sitting, run)
        keys = IdempotencyKey.objects.filter(key__startswith=f"{run}-").order_by("pk")
        plays[run] = {
            "answers": answers,
            "keys": [(k.key.removeprefix(f"{run}-"), k.operation, k.status) for k in keys],
            "rows": _dump(sitting),
        }
    sql, orm = plays["sql"], plays["orm"]
    assert all(status < 300 for status, _ in sql["answers"]), sql["answers"]
    assert sql["answers"][0] == sql["answers"][1]  # the replay
    assert len(sql["rows"]["Van"]) == 6  # five ván and the superseded version of ván 1
    for table, sql_rows in sql["rows"].items():
        assert sql_rows == orm["rows"][table], table
    assert sql["answers"] == orm["answers"]
    assert sql["keys"] == orm["keys"]


def test_the_orm_run_really_leaves_plain_sql_aside(django_assert_max_num_queries: Any) -> None:
    """Inside ``on_the_orm`` no statement of rows' own (its table aliases ``t0``) is sent."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    sitting = open_sitting(club=ClubFactory(), created_by=UserFactory())
    with CaptureQueriesContext(connection) as plain:
        rows.select_one(model=Sitting, where={"pk": sitting.pk}, related=["rules"])
    with rows.on_the_orm(), CaptureQueriesContext(connection) as orm:
        found = rows.select_one(model=Sitting, where={"pk": sitting.pk}, related=["rules"])
    assert found is not None and found.rules_id == sitting.rules_id
    assert " t0 " in plain.captured_queries[0]["sql"]
    assert " t0 " not in orm.captured_queries[0]["sql"]
