"""Corrections: reversing transactions, never edits; balances always equal the replay of the
current ván; a correction followed by its replacement equals the replacement alone."""

from __future__ import annotations

import pytest

from scoring.engine.errors import EngineError, SettlementError
from scoring.engine.settlement import replay
from scoring.models import LedgerTransaction, Posting, TransactionKind, Van
from scoring.selectors.ledger import ledger_differences
from scoring.services.sittings import van_correct
from tests.factories import FIVE, UserFactory, new_key, open_sitting, record_all
from tests.ledger.helpers import ledger_balances, unbalanced_transactions

pytestmark = pytest.mark.django_db

GOM = {"preset": "luat-2005", "gom": 10}
HISTORY = [
    {"winner": "An", "cuoc": ["tom"]},
    {"winner": "An", "cuoc": ["leo"]},  # Thông: 12
    {"winner": "An", "cuoc": ["tom"]},  # Tam Khôi: 10
    {"winner": "Bình", "cuoc": ["chi_nay"]},
]


def _replayed(mode: str, vans: list[dict]) -> dict:
    answer = replay({"game": "to-tom-5", "rules": GOM, "mode": mode, "players": list(FIVE), "van": vans})
    return {k: answer[k] for k in ("balances", "pool", "ga_trong")}


@pytest.mark.parametrize("mode", ["quang", "gom"])
def test_correcting_an_early_van_recomputes_every_later_one(mode: str) -> None:
    sitting = open_sitting(rules=GOM, mode=mode)
    vans = record_all(sitting, HISTORY)
    corrector = UserFactory()
    postings_before = set(Posting.objects.values_list("pk", "amount"))
    # Ván 2 was Bình's, not An's: An's streak breaks, so ván 3 is a plain Tôm (8, not Tam Khôi).
    new = van_correct(
        van=vans[1],
        record={"winner": "Bình", "cuoc": ["leo"]},
        reason="Ghi nhầm người ù",
        corrected_by=corrector,
        idempotency_key=new_key(),
    ).obj
    corrected = [HISTORY[0], {"winner": "Bình", "cuoc": ["leo"]}, *HISTORY[2:]]
    assert ledger_balances(sitting) == _replayed(mode, corrected)
    # Nothing was edited: every earlier posting is still there, unchanged.
    assert postings_before <= set(Posting.objects.values_list("pk", "amount"))
    assert unbalanced_transactions(sitting) == []
    current = list(sitting.van.filter(is_current=True).order_by("seq"))
    assert [(v.seq, v.streak, v.points) for v in current] == [(1, 1, 8), (2, 1, 10), (3, 1, 8), (4, 1, 36)]
    assert (new.replaces, new.correction_reason, new.entered_by) == (vans[1], "Ghi nhầm người ù", corrector)
    # Ván 2, 3 and 4 each had their transactions reversed (gom: ván 1's opening is untouched).
    reversed_seqs = sorted(
        t.van.seq
        for t in LedgerTransaction.objects.filter(kind=TransactionKind.REVERSAL).select_related("van")
    )
    assert reversed_seqs == [2, 3, 4]
    assert ledger_differences(sitting) == []


def test_a_correction_followed_by_its_replacement_equals_the_replacement_alone() -> None:
    corrected = open_sitting(rules=GOM, mode="gom")
    vans = record_all(corrected, HISTORY)
    fix = {"result": "hoa"}
    van_correct(van=vans[2], record=fix, reason="Thật ra hòa", corrected_by=None, idempotency_key=new_key())
    direct = open_sitting(rules=GOM, mode="gom", players=[f"{n} " for n in FIVE])
    record_all(direct, [*HISTORY[:2], fix, HISTORY[3]])

    def shape(sitting: object) -> tuple:
        b = ledger_balances(sitting)  # type: ignore[arg-type]
        return tuple(b["balances"].values()), b["pool"], b["ga_trong"]

    assert shape(corrected) == shape(direct)
    points = [
        (v.streak, v.points) for v in Van.objects.filter(sitting=corrected, is_current=True).order_by("seq")
    ]
    assert points == [(v.streak, v.points) for v in direct.van.order_by("seq")]


def test_a_correction_the_later_van_cannot_follow_is_refused_whole() -> None:
    # Tài Bàn in gom, gom 10 (pool 30): Chi's Sửu Bàn 30 empties the pool and closes the hội, so
    # ván 2 opens a new one and may set the stake N = 20. Were ván 1 a draw, ván 2 would not open
    # a hội and could not set the stake: that correction is refused, and nothing is written.
    sitting = open_sitting(
        game="tai-ban", rules={"preset": "tai-ban", "gom": 10}, mode="gom", players=["An", "Bình", "Chi"]
    )
    vans = record_all(
        sitting, [{"winner": "Chi", "cuoc": ["suu_ban"]}, {"winner": "An", "cuoc": ["suong"], "stake": 20}]
    )
    before = (LedgerTransaction.objects.count(), Posting.objects.count(), Van.objects.count())
    with pytest.raises(SettlementError, match="Ván 2: 'stake'"):
        van_correct(
            van=vans[0],
            record={"result": "hoa"},
            reason="Thật ra hòa",
            corrected_by=None,
            idempotency_key=new_key(),
        )
    assert (LedgerTransaction.objects.count(), Posting.objects.count(), Van.objects.count()) == before
    assert Van.objects.get(pk=vans[0].pk).is_current


def test_a_correction_needs_a_reason() -> None:
    sitting = open_sitting()
    (van,) = record_all(sitting, [{"winner": "An", "cuoc": ["tom"]}])
    with pytest.raises(EngineError, match="lý do"):
        van_correct(
            van=van, record={"result": "hoa"}, reason="  ", corrected_by=None, idempotency_key=new_key()
        )


def _correct_first(n: int) -> int:
    """Record ``n`` ván, correct ván 1 (which changes every later streak), return the statements
    the correction sent; balances must equal the replay of the corrected history."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    sitting = open_sitting(rules=GOM, mode="gom")
    history = [
        {"winner": "An", "cuoc": ["tom"]} if i % 3 else {"winner": "Bình", "cuoc": ["leo"]} for i in range(n)
    ]
    vans = record_all(sitting, history)
    fix = {"winner": "An", "cuoc": ["chi_nay"]}
    with CaptureQueriesContext(connection) as sent:
        van_correct(
            van=vans[0], record=fix, reason="Ghi nhầm", corrected_by=UserFactory(), idempotency_key=new_key()
        )
    assert ledger_balances(sitting) == _replayed("gom", [fix, *history[1:]])
    assert unbalanced_transactions(sitting) == []
    assert ledger_differences(sitting) == []
    return len(sent)


def test_a_correction_re_posts_the_later_van_in_bulk() -> None:
    """Correcting ván 1 re-posts every later ván with a fixed number of statements (one per table
    and step), not a few per later ván: of 1,000 ván it measured 18 s when it went row by row."""
    few, many = _correct_first(6), _correct_first(30)
    assert many == few, (few, many)
