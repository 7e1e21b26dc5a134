"""``python manage.py score``: JSON request(s) on stdin → points and breakdown on stdout."""

from __future__ import annotations

from typing import Any

from scoring.engine import run_batch, score_request
from scoring.services.rules import resolve_rules

from ._jsonio import JsonCommand


class Command(JsonCommand):
    help = (
        "Tính điểm một ván ù. Đọc JSON từ stdin, ví dụ "
        '{"game": "to-tom-5", "rules": "luat-2005", "cuoc": ["tom"], "streak": 1}; '
        'hoặc một danh sách các yêu cầu. Lỗi: mã thoát 2 và {"error": ...}.'
    )

    def handle(self, *args: Any, **options: Any) -> None:
        self.answer(
            lambda payload: run_batch(payload, lambda r: score_request(r, resolve_rules=resolve_rules))
        )
