"""The ván path's plain SQL (scoring/services/rows.py) reads and writes exactly what the ORM does:
the same instances (JSON, dates, related rows), rows the ORM then reads back equal, the lock
really held, and models whose writes need their own save() or signals refused."""

from __future__ import annotations

import threading

import pytest
from django.db import DatabaseError, connection, transaction
from rest_framework.authtoken.models import Token

from scoring.models import IdempotencyKey, LedgerTransaction, Posting, Sitting, TransactionKind, Van
from scoring.services import rows
from tests.factories import ClubFactory, UserFactory, open_sitting, record_all

pytestmark = pytest.mark.django_db


def _fields(obj: object) -> dict[str, object]:
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}


def test_select_one_builds_the_same_instances_as_the_orm_with_their_related_rows() -> None:
    keeper = UserFactory()
    sitting = open_sitting(club=ClubFactory(), created_by=keeper)
    record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}])
    orm = Sitting.objects.select_related("rules", "club", "created_by").get(pk=sitting.pk)
    plain = rows.select_one(model=Sitting, where={"pk": sitting.pk}, related=["rules", "club", "created_by"])
    assert plain is not None
    assert _fields(plain) == _fields(orm)
    assert (
        plain.state_snapshot["state"]["balances"] == orm.state_snapshot["state"]["balances"]
    )  # JSON, decoded
    assert plain.created_at.tzinfo is not None
    assert not plain._state.adding
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as read:
        related = (plain.rules, plain.club, plain.created_by)
    assert not read.captured_queries  # loaded with the row, as select_related does
    assert [_fields(r) for r in related] == [_fields(orm.rules), _fields(orm.club), _fields(orm.created_by)]


def test_select_one_answers_none_and_a_missing_foreign_row_as_none() -> None:
    assert rows.select_one(model=Sitting, where={"pk": 987654}) is None
    sitting = open_sitting()  # no club, no opener
    plain = rows.select_one(model=Sitting, where={"pk": sitting.pk}, related=["club", "created_by"])
    assert plain is not None and plain.club is None and plain.created_by is None


def test_a_token_signs_in_through_the_api_with_its_account_and_a_wrong_one_is_refused(client) -> None:
    keeper = UserFactory()
    token = Token.objects.create(user=keeper)
    sitting = open_sitting(created_by=keeper)
    ok = client.get(f"/api/v1/sittings/{sitting.pk}", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert ok.status_code == 200
    wrong = client.get(f"/api/v1/sittings/{sitting.pk}", HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert wrong.status_code == 401
    keeper.is_active = False
    keeper.save()
    assert (
        client.get(f"/api/v1/sittings/{sitting.pk}", HTTP_AUTHORIZATION=f"Token {token.key}").status_code
        == 401
    )


def test_insert_writes_rows_the_orm_reads_back_equal_in_order() -> None:
    sitting = open_sitting()
    seats = list(sitting.seats.order_by("position"))
    van = rows.insert(
        objs=[
            Van(
                sitting=sitting,
                seq=1,
                record={"winner": "An", "cuoc": ["tom"]},
                outcome="win",
                winner=seats[0],
                points=10,
            )
        ]
    )[0]
    assert van.pk is not None and van.created_at is not None  # auto_now_add, as save() sets it
    again = Van.objects.get(pk=van.pk)
    assert _fields(again) == _fields(van)
    assert Van.objects.filter(pk=van.pk, record__winner="An").exists()  # stored as JSON, not as a string
    with transaction.atomic():
        txn = rows.insert(
            objs=[LedgerTransaction(sitting=sitting, van=van, kind=TransactionKind.VAN, reason="Ván 1")]
        )[0]
        postings = rows.insert(
            objs=[
                Posting(
                    transaction=txn,
                    sitting=sitting,
                    account="player",
                    seat=seat,
                    amount=amount,
                    line=1,
                    why="thử",
                )
                for seat, amount in ((seats[1], -10), (seats[0], 10))
            ]
        )
    assert [p.pk for p in postings] == sorted(p.pk for p in postings)
    stored = list(Posting.objects.filter(transaction=txn).order_by("pk").values_list("seat_id", "amount"))
    assert stored == [(seats[1].pk, -10), (seats[0].pk, 10)]


def test_insert_refuses_a_model_that_needs_its_own_save() -> None:
    with pytest.raises(TypeError, match="save"):
        rows.insert(objs=[Token(user=UserFactory())])  # Token.save() makes the key


def test_an_insert_breaking_a_constraint_raises_the_orm_error_and_writes_nothing() -> None:
    from django.db import IntegrityError

    rows.insert(
        objs=[IdempotencyKey(key="k-1", operation="op", request_hash="h", status=201, response={"a": 1})]
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        rows.insert(
            objs=[IdempotencyKey(key="k-1", operation="op", request_hash="h", status=201, response={})]
        )
    assert IdempotencyKey.objects.get(key="k-1").response == {"a": 1}


def test_update_writes_and_sets_the_fields() -> None:
    sitting = open_sitting()
    rows.update(obj=sitting, title="Canh chiều", state_snapshot={"van": []})
    assert sitting.title == "Canh chiều"
    again = Sitting.objects.get(pk=sitting.pk)
    assert (again.title, again.state_snapshot) == ("Canh chiều", {"van": []})


def lock_now(sql: str, pk: int) -> str:
    """Run ``sql`` (a NOWAIT lock of row ``pk``) in a transaction on another connection, as
    another request or a worker would: "got it", or "refused" when it would have had to wait."""
    seen: list[str] = []

    def other() -> None:
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql, [pk])
            seen.append("got it")
        except DatabaseError:
            seen.append("refused")
        finally:
            connection.close()

    t = threading.Thread(target=other)
    t.start()
    t.join()
    return seen[0]


LOCK = "SELECT 1 FROM scoring_sitting WHERE id = %s FOR UPDATE NOWAIT"
KEY_CHECK = "SELECT 1 FROM scoring_sitting WHERE id = %s FOR KEY SHARE NOWAIT"  # a foreign key's check


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL")
def test_for_update_holds_the_row_lock_until_the_transaction_ends() -> None:
    sitting = open_sitting()
    with transaction.atomic():
        assert rows.select_one(model=Sitting, where={"pk": sitting.pk}, for_update=True) is not None
        assert lock_now(LOCK, sitting.pk) == "refused"
    assert lock_now(LOCK, sitting.pk) == "got it"


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL")
def test_a_foreign_key_check_on_the_locked_sitting_does_not_wait_for_the_van() -> None:
    """A leaderboard worker's cache write references the sitting; PostgreSQL checks that key at
    its commit (``FOR KEY SHARE``). Had the ván locked the sitting ``FOR UPDATE``, the worker would
    wait for the ván while holding the canh row the ván updates next: a deadlock, a 500 (#24)."""
    sitting = open_sitting()
    with transaction.atomic():
        rows.select_one(model=Sitting, where={"pk": sitting.pk}, for_update=True)
        assert lock_now(KEY_CHECK, sitting.pk) == "got it"


def test_update_refuses_a_model_that_needs_its_own_save() -> None:
    """As :func:`rows.insert` does: an UPDATE that skips ``save()`` would skip what it does."""
    with pytest.raises(TypeError, match="save"):
        rows.update(obj=Token(user=UserFactory()), key="x")


@pytest.mark.django_db(transaction=True)
def test_insert_leaves_generated_and_database_default_columns_to_the_database() -> None:
    """A generated column or one with a database default is not written as Python's value (a
    ``DatabaseDefault`` marker, or nothing for a generated column): the database fills them, and
    the inserted instances carry what it filled, as ``bulk_create`` leaves them."""
    from django.db import models
    from django.db.models.functions import Now
    from django.test.utils import isolate_apps

    with isolate_apps("scoring"):

        class Tally(models.Model):
            points = models.IntegerField()
            doubled = models.GeneratedField(
                expression=models.F("points") * 2, output_field=models.IntegerField(), db_persist=True
            )
            note = models.CharField(max_length=20, db_default="mới")
            at = models.DateTimeField(db_default=Now())

            class Meta:
                app_label = "scoring"
                db_table = "test_rows_tally"

            def __str__(self) -> str:
                return str(self.points)

        with connection.schema_editor() as editor:
            editor.create_model(Tally)
        try:
            made = rows.insert(objs=[Tally(points=3), Tally(points=5, note="cũ")])
            assert [(t.points, t.doubled, t.note) for t in made] == [(3, 6, "mới"), (5, 10, "cũ")]
            assert all(t.at is not None for t in made)
            stored = list(Tally.objects.order_by("pk").values_list("points", "doubled", "note"))
            assert stored == [(3, 6, "mới"), (5, 10, "cũ")]
            with pytest.raises(TypeError, match="doubled"):
                rows.update(obj=made[0], doubled=7)
        finally:
            with connection.schema_editor() as editor:
                editor.delete_model(Tally)
