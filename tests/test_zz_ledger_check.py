"""Runs last (by name): ``manage.py ledger_check`` over sittings built the way the app builds them,
in both modes with corrections and a settle-up, must report zero differences."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from scoring.engine.settlement import rules_with_overrides
from scoring.services.sittings import sitting_settle_up, van_correct
from tests.factories import new_key, open_sitting, record_all
from tests.ledger.cases import ALL


@pytest.mark.django_db(transaction=True)
def test_ledger_check_finds_zero_differences(capsys: pytest.CaptureFixture[str]) -> None:
    for case in ALL[::4]:
        request = case["request"]
        rules = rules_with_overrides(request)  # the request's gom / gà overrides applied
        sitting = open_sitting(
            game=request["game"], rules=rules, mode=request["mode"], players=request["players"]
        )
        vans = record_all(sitting, request["van"])
        van_correct(
            van=vans[0],
            record=request["van"][-1],
            reason="kiểm tra",
            corrected_by=None,
            idempotency_key=new_key(),
        )
        sitting_settle_up(sitting=sitting, settled_by=None, idempotency_key=new_key())
    call_command("ledger_check")
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].startswith(f"ledger_check: {len(ALL[::4])} canh bài")
    assert out[-1].endswith(" 0 chênh lệch.")
    assert len(out) == 1
