"""Every outcome, penalty and pot of docs/rules.md §7–§13 in both money modes, replayed through the app's
services (sitting_open + van_record) and read back from the ledger. Numbers worked by hand in
tests/ledger/cases.py."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine.settlement import replay
from scoring.models import TransactionKind
from scoring.services.replay import sitting_replay
from scoring.services.rules import resolve_rules
from tests.ledger.cases import ALL, GOM
from tests.ledger.helpers import ledger_balances, unbalanced_transactions

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("case", ALL, ids=[c["name"] for c in ALL])
def test_replay_through_services_gives_the_hand_worked_balances(case: dict[str, Any]) -> None:
    sitting, result = sitting_replay(request=case["request"])
    expected = {"balances": case["balances"], "pool": case["pool"], "ga_trong": case["ga_trong"]}
    assert {k: result[k] for k in expected} == expected
    assert ledger_balances(sitting) == expected
    assert unbalanced_transactions(sitting) == []
    # The ledger's transfers are the engine's, ván by ván.
    assert result["van"] == replay(case["request"], resolve_rules=resolve_rules)["van"]


@pytest.mark.parametrize("case", GOM[:2], ids=[c["name"] for c in GOM[:2]])
def test_gom_collections_are_their_own_transactions(case: dict[str, Any]) -> None:
    sitting, result = sitting_replay(request=case["request"])
    gom = list(sitting.transactions.filter(kind=TransactionKind.GOM).order_by("id"))
    assert [t.van.seq for t in gom] == [h["opened_before_van"] for h in result["hoi"]]
    for txn in gom:
        postings = list(txn.postings.all())
        # Every player pays the gom (10) into the pool: five payers, one pool line each.
        assert sorted(p.amount for p in postings if p.account == "player") == [-10] * 5
        assert sum(p.amount for p in postings if p.account == "pool") == 50


def test_the_rule_overrides_of_a_replay_are_stored_in_the_sittings_snapshot() -> None:
    case = next(c for c in GOM if c["name"] == "gom-ga-ngoai-don")
    sitting, _ = sitting_replay(request=case["request"])
    rules = sitting.rules.rules()
    assert (rules.gom, rules.ga_ngoai.value, rules.preset) == (10, "don", "luat-2005")
