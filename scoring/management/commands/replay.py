"""``python manage.py replay``: a whole sitting as JSON on stdin → balances, pool, pot, hội, ván.

Runs the app's own services in one transaction, rolled back unless ``--save`` (then the sitting
is kept and its id added to the answer as ``sitting_id``). Bad input: exit 2, ``{"error": ...}``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser
from django.db import connection, transaction

from scoring.engine import run_batch
from scoring.services.replay import sitting_replay

from ._jsonio import JsonCommand


class Command(JsonCommand):
    help = (
        "Ghi lại cả một canh bài từ JSON trên stdin và in số dư, điểm làng, gà, hội và từng ván. "
        'Ví dụ {"game": "to-tom-5", "rules": "luat-2005", "mode": "quang", "players": [...], "van": [...]}; '
        'hoặc một danh sách. Không lưu gì trừ khi có --save. Lỗi: mã thoát 2 và {"error": ...}.'
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--save", action="store_true", help="Lưu canh bài (in ra sitting_id).")

    def handle(self, *args: Any, **options: Any) -> None:
        save = bool(options["save"])
        self.answer(lambda payload: self._replay(payload, save))

    def _replay(self, payload: Any, save: bool) -> Any:
        with transaction.atomic():

            def one(request: Any) -> dict[str, Any]:
                sitting, result = sitting_replay(request=request)
                return {**result, "sitting_id": sitting.pk} if save else result

            answer = run_batch(payload, one)
            # Fire the database's deferred checks (zero-sum, pots ≥ 0) even when rolling back.
            connection.check_constraints()
            if not save:
                transaction.set_rollback(True)
        return answer
