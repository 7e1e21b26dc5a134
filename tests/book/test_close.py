"""Closing a period: every open balance of its canh to 0 with at most n − 1 transfers between
members, recorded in the ledger as settlements, after a confirmation that must still hold; undone
only by a reversing correction; the close's rows are never edited or deleted (the database refuses)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import DatabaseError, IntegrityError, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import LedgerTransaction, PeriodClose, PeriodCloseEntry, Sitting, TransactionKind
from scoring.periods import dates, lunar_month, lunar_year
from scoring.selectors.book import book, member_open
from scoring.selectors.ledger import balances, ledger_differences
from scoring.services.closing import CloseChanged, CloseError, fingerprint, period_close, period_close_reverse
from scoring.services.sittings import SittingClosed, van_record
from tests.book.conftest import FIVE_A, FIVE_B, FIVE_C, MEMBERS, canh, season
from tests.factories import new_key

pytestmark = [pytest.mark.sqlite, pytest.mark.django_db]

CUOC = ["tom", "leo", "thap_dieu", "chi_nay", "bach_thu", "kinh_cu"]


def _open(club: Any, period: Any) -> dict[str, int]:
    return {m.name: m.open for m in book(club, period).members}


def test_a_close_clears_every_open_balance_with_at_most_n_minus_1_transfers(
    club: Any, treasurer: Any
) -> None:
    canh(
        club,
        dt.date(2025, 3, 1),
        FIVE_A,
        [{"winner": "Cụ Tư", "cuoc": ["tom"]}, {"winner": "Cô Tám", "cuoc": ["leo"]}],
    )
    canh(club, dt.date(2025, 3, 8), FIVE_B, [{"winner": "Ông Chín", "cuoc": ["chi_nay"]}], mode="gom")
    canh(
        club, dt.date(2025, 3, 15), FIVE_C, [{"winner": "Bác Năm", "cuoc": ["thap_dieu"]}, {"result": "hoa"}]
    )
    month = lunar_month(2025, 2)
    before = book(club, month)
    open_before = {m.player_id: m for m in before.members}
    assert any(m.open for m in before.members) and before.open_canh
    close = period_close(
        club=club, period=month, closed_by=treasurer, expected=fingerprint(the_book=before)
    ).obj
    after = book(club, month)
    assert all(m.open == 0 for m in after.members)
    assert [m.points for m in after.members] == [m.points for m in before.members]  # play is untouched
    assert not after.plan and not after.open_canh
    debtors = {t["from_player"] for t in close.transfers} | {t["to_player"] for t in close.transfers}
    assert len(close.transfers) <= len([b for b in close.balances.values() if b]) - 1
    # The plan settles exactly the balances it names (a debtor pays what they owe, a creditor is
    # paid what they are owed), which are the members' open balances, the gom canh's pool given back.
    paid = {int(p): 0 for p in close.balances}
    for t in close.transfers:
        paid[t["from_player"]] -= t["amount"]
        paid[t["to_player"]] += t["amount"]
    assert paid == {int(p): b for p, b in close.balances.items()}
    assert debtors <= set(open_before)
    for sitting in Sitting.objects.filter(club=club):
        assert sitting.ended_at is not None
        assert not any(balances(sitting).players.values()) and balances(sitting).pool == 0
        assert ledger_differences(sitting) == []
    kinds = set(
        LedgerTransaction.objects.filter(period_close_entry__close=close).values_list("kind", flat=True)
    )
    assert kinds == {TransactionKind.SETTLEMENT}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c"]),
            st.sampled_from(["quang", "gom"]),
            st.lists(st.tuples(st.integers(0, 4), st.sampled_from(CUOC)), min_size=1, max_size=4),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_any_season_closes_to_zero_within_n_minus_1(club: Any, treasurer: Any, spec: list[Any]) -> None:
    tables = {"a": FIVE_A, "b": FIVE_B, "c": FIVE_C}
    with transaction.atomic():
        for i, (which, mode, wins) in enumerate(spec):
            names = tables[which]
            canh(
                club,
                dt.date(2025, 4, 1) + dt.timedelta(days=i),
                names,
                [{"winner": names[w], "cuoc": [c]} for w, c in wins],
                mode=mode,
            )
        month = dates(dt.date(2025, 4, 1), dt.date(2025, 4, 30))
        # The open balances a close settles: the ledger's, each running gom canh's pool given back.
        people = [p for p, amount in member_open(book(club, month).canh).items() if amount]
        close = period_close(club=club, period=month, closed_by=treasurer).obj
        assert all(m.open == 0 for m in book(club, month).members)
        assert sorted(int(p) for p, b in close.balances.items() if b) == sorted(people)
        assert len(close.transfers) <= max(len(people) - 1, 0)
        transaction.set_rollback(True)


def test_the_close_refuses_when_the_balances_changed_since_the_confirmation(
    club: Any, treasurer: Any
) -> None:
    sitting = canh(club, dt.date(2025, 3, 1), FIVE_A, [{"winner": "Cụ Tư", "cuoc": ["tom"]}])
    month = lunar_month(2025, 2)
    seen = fingerprint(the_book=book(club, month))
    van_record(
        sitting=sitting, seq=2, record={"winner": "Cô Tám", "cuoc": ["leo"]}, idempotency_key=new_key()
    )
    with pytest.raises(CloseChanged):
        period_close(club=club, period=month, closed_by=treasurer, expected=seen)
    assert not PeriodClose.objects.exists()
    assert not LedgerTransaction.objects.filter(kind=TransactionKind.SETTLEMENT).exists()


def test_a_closed_canh_takes_no_more_van_until_the_close_is_undone(club: Any, treasurer: Any) -> None:
    sitting = canh(club, dt.date(2025, 3, 1), FIVE_A, [{"winner": "Cụ Tư", "cuoc": ["tom"]}])
    close = period_close(club=club, period=lunar_month(2025, 2), closed_by=treasurer).obj
    with pytest.raises(SittingClosed):
        van_record(
            sitting=sitting, seq=2, record={"winner": "Cô Tám", "cuoc": ["leo"]}, idempotency_key=new_key()
        )
    period_close_reverse(close=close, reason="Chốt sớm quá", reversed_by=treasurer)
    van_record(
        sitting=sitting, seq=2, record={"winner": "Cô Tám", "cuoc": ["leo"]}, idempotency_key=new_key()
    )
    assert ledger_differences(Sitting.objects.get(pk=sitting.pk)) == []


def test_undoing_a_close_restores_every_open_balance_by_reversing_entries(club: Any, treasurer: Any) -> None:
    world = season(club, treasurer)
    year = lunar_year(2025)
    before = _open(club, year)
    close = period_close(club=club, period=year, closed_by=treasurer).obj
    assert set(_open(club, year).values()) == {0}
    originals = set(PeriodCloseEntry.objects.filter(close=close).values_list("transaction_id", flat=True))
    period_close_reverse(close=close, reason="Nhầm kỳ", reversed_by=treasurer)
    assert _open(club, year) == before
    reversals = LedgerTransaction.objects.filter(
        period_close_entry__close=close, period_close_entry__reversal=True
    )
    assert (
        set(reversals.values_list("reverses_id", flat=True)) == originals
    )  # every one reversed, none deleted
    assert LedgerTransaction.objects.filter(pk__in=originals).count() == len(originals)
    assert not Sitting.objects.filter(pk__in=close.ended, ended_at__isnull=False).exists()
    with pytest.raises(CloseError):
        period_close_reverse(close=close, reason="Lần nữa", reversed_by=treasurer)
    for sitting in Sitting.objects.filter(club=club):
        assert ledger_differences(sitting) == [], sitting
    assert world["kept"].pk != close.pk


def test_nothing_to_close_is_said_and_writes_nothing(club: Any, treasurer: Any) -> None:
    with pytest.raises(CloseError, match="Không có gì để chốt"):
        period_close(club=club, period=lunar_month(2025, 2), closed_by=treasurer)
    assert not PeriodClose.objects.exists()


def test_a_repeated_close_with_the_same_key_writes_once(club: Any, treasurer: Any) -> None:
    canh(club, dt.date(2025, 3, 1), FIVE_A, [{"winner": "Cụ Tư", "cuoc": ["tom"]}])
    month, key = lunar_month(2025, 2), new_key()
    first = period_close(club=club, period=month, closed_by=treasurer, idempotency_key=key)
    again = period_close(club=club, period=month, closed_by=treasurer, idempotency_key=key)
    assert again.answer.replayed and again.obj.pk == first.obj.pk
    assert PeriodClose.objects.count() == 1


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE scoring_periodclose SET label = 'x'",
        "DELETE FROM scoring_periodclose",
        "UPDATE scoring_periodcloseentry SET reversal = TRUE",
        "DELETE FROM scoring_periodcloseentry",
    ],
)
def test_the_database_refuses_to_edit_or_delete_a_close(club: Any, treasurer: Any, statement: str) -> None:
    from django.db import connection

    canh(club, dt.date(2025, 3, 1), FIVE_A, [{"winner": "Cụ Tư", "cuoc": ["tom"]}])
    period_close(club=club, period=lunar_month(2025, 2), closed_by=treasurer)
    with pytest.raises((DatabaseError, IntegrityError)), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement)
    assert PeriodClose.objects.get().label == lunar_month(2025, 2).label


def test_members_are_the_players_of_the_club_s_canh(club: Any) -> None:
    assert set(FIVE_A) | set(FIVE_B) | set(FIVE_C) <= set(MEMBERS)
