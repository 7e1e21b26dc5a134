"""A Hypothesis state machine over a sitting: open, record ván of every kind, correct, repeat a
write, settle up. After every step: every transaction sums to zero, the pool and the pot never went
below zero, the balances are the engine's replay of the current ván (so a correction followed by
its replacement equals the replacement alone), and a settled sitting is at zero everywhere. At the
end of each example, ledger_check's full re-derivation finds nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from scoring.engine.errors import EngineError
from scoring.engine.settlement import replay
from scoring.models import IdempotencyKey, LedgerTransaction, Posting, Sitting, Van
from scoring.selectors.ledger import integrity, ledger_differences
from scoring.services.sittings import SittingClosed, sitting_settle_up, van_correct, van_record
from tests.factories import FIVE, new_key, open_sitting
from tests.ledger.helpers import ledger_balances, unbalanced_transactions

NAMES = st.sampled_from(FIVE)
CUOC = st.lists(
    st.sampled_from(["tom", "leo", "thap_dieu", "chi_nay", "bach_thu", "kinh_tu_co"]), max_size=2, unique=True
)
GA = st.lists(
    st.fixed_dictionaries({"kind": st.sampled_from(["nhai", "quan_lo", "bo_u"]), "player": NAMES}), max_size=1
)
WIN = st.fixed_dictionaries(
    {"winner": NAMES, "cuoc": CUOC},
    optional={
        "discarder": NAMES,
        "chiu": st.lists(NAMES, max_size=1),
        "fault": st.sampled_from(["lanh_lang", "u_bao", "xuong_thua", "danh_u_den", "den_chong"]),
        "declared": CUOC,
        "ga": GA,
    },
)
DRAW = st.fixed_dictionaries({"result": st.just("hoa")}, optional={"ga": GA})
BAO = st.fixed_dictionaries(
    {"bao": NAMES, "regime": st.sampled_from(["den_lang", "ngoi_day", "cheo_do"])},
    optional={"winner": NAMES, "cuoc": CUOC},
)
RECORDS = st.one_of(WIN, WIN, DRAW, BAO)
MODES = st.sampled_from(["quang", "gom"])
GA_TRONG = st.sampled_from(["none", "lang", "cong_nghiep", "nha", "rung"])
GA_NGOAI = st.sampled_from(["none", "don", "chong"])


def _counts() -> tuple[int, ...]:
    tables = [m._meta.db_table for m in (Van, LedgerTransaction, Posting, IdempotencyKey)]
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {t})" for t in tables))
        return tuple(cursor.fetchone())


class LedgerMachine(RuleBasedStateMachine):
    sitting: Sitting
    request: dict[str, Any]
    records: list[dict[str, Any]]

    @initialize(mode=MODES, ga_trong=GA_TRONG, ga_ngoai=GA_NGOAI, het_hoi=st.booleans())
    def open(self, mode: str, ga_trong: str, ga_ngoai: str, het_hoi: bool) -> None:
        rules = {
            "preset": "luat-2005",
            "gom": 10,
            "ga_trong": ga_trong,
            "ga_ngoai": ga_ngoai,
            "kinh_tu_co_policy": "het_hoi" if het_hoi else "points",
        }
        self.sitting = open_sitting(rules=rules, mode=mode)
        self.request = {"game": "to-tom-5", "rules": rules, "mode": mode, "players": list(FIVE)}
        self.records = []
        self.ended = False
        self.last_write: tuple[Any, ...] | None = None

    def _refused_leaves_no_trace(self, write: Any) -> bool:
        before = _counts()
        try:
            write()
        except EngineError:
            assert _counts() == before
            return False
        return True

    @precondition(lambda self: not self.ended)
    @rule(record=RECORDS)
    def record(self, record: dict[str, Any]) -> None:
        key, seq = new_key(), len(self.records) + 1

        def write() -> Any:
            return van_record(sitting=self.sitting, seq=seq, record=record, idempotency_key=key)

        if self._refused_leaves_no_trace(write):
            self.records.append(record)
            self.last_write = (write,)

    @precondition(lambda self: not self.ended and bool(self.records))
    @rule(data=st.data(), record=RECORDS)
    def correct(self, data: st.DataObject, record: dict[str, Any]) -> None:
        index = data.draw(st.integers(0, len(self.records) - 1), label="ván")
        van = self.sitting.van.get(is_current=True, seq=index + 1)
        key = new_key()

        def write() -> Any:
            return van_correct(
                van=van, record=record, reason="sửa thử", corrected_by=None, idempotency_key=key
            )

        if self._refused_leaves_no_trace(write):
            self.records[index] = record
            self.last_write = (write,)

    @precondition(lambda self: self.last_write is not None)
    @rule()
    def repeat_last_write(self) -> None:
        before = _counts()
        assert self.last_write is not None
        assert self.last_write[0]().answer.replayed
        assert _counts() == before

    @precondition(lambda self: not self.ended and len(self.records) >= 3)
    @rule()
    def settle_up(self) -> None:
        sitting_settle_up(sitting=self.sitting, settled_by=None, idempotency_key=new_key())
        self.ended = True
        self.sitting.refresh_from_db()

    @precondition(lambda self: self.ended)
    @rule(record=RECORDS)
    def no_van_after_settling_up(self, record: dict[str, Any]) -> None:
        before = _counts()
        with pytest.raises(SittingClosed):
            van_record(
                sitting=self.sitting, seq=len(self.records) + 1, record=record, idempotency_key=new_key()
            )
        assert _counts() == before

    @precondition(lambda self: self.ended)
    @rule(mode=MODES, ga_trong=GA_TRONG, ga_ngoai=GA_NGOAI, het_hoi=st.booleans())
    def open_the_next_sitting(self, mode: str, ga_trong: str, ga_ngoai: str, het_hoi: bool) -> None:
        assert ledger_differences(self.sitting) == []
        self.open(mode, ga_trong, ga_ngoai, het_hoi)

    @invariant()
    def every_transaction_sums_to_zero_and_pots_stay_non_negative(self) -> None:
        assert unbalanced_transactions(self.sitting) == []
        check = integrity(self.sitting)
        assert check.pool_ok and check.pot_ok

    @invariant()
    def balances_are_the_replay_of_the_current_van(self) -> None:
        # After a correction self.records holds the replacement: the ledger must equal a sitting
        # that had recorded the replacement alone.
        expected = replay({**self.request, "van": self.records})
        wanted = {k: expected[k] for k in ("balances", "pool", "ga_trong")}
        if self.ended:
            assert ledger_balances(self.sitting, play_only=True) == wanted
            final = ledger_balances(self.sitting, play_only=False)
            assert (set(final["balances"].values()), final["pool"], final["ga_trong"]) == ({0}, 0, 0)
        else:
            assert ledger_balances(self.sitting) == wanted

    def teardown(self) -> None:
        # The full re-derivation (every ván's transfers, streaks, points) once per example.
        if hasattr(self, "sitting"):
            assert ledger_differences(self.sitting) == []


@pytest.mark.django_db(transaction=True)
def test_the_ledger_keeps_its_invariants() -> None:
    run_state_machine_as_test(
        LedgerMachine,
        settings=settings(
            max_examples=25,
            stateful_step_count=15,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
