"""``python manage.py check_hand``: kiểm bài — JSON hand(s) on stdin → verdict or waits on stdout."""

from __future__ import annotations

from typing import Any

from scoring.engine import check_request, run_batch
from scoring.services.rules import resolve_rules

from ._jsonio import JsonCommand


class Command(JsonCommand):
    help = (
        "Kiểm bài. Đọc JSON từ stdin, ví dụ "
        '{"game": "to-tom-5", "hand": "7v 3m 3s …", "declared": ["tom"]}; thêm "waits": true với bài '
        'thiếu một quân để xem bài chờ. Lỗi: mã thoát 2 và {"error": ...}.'
    )

    def handle(self, *args: Any, **options: Any) -> None:
        self.answer(
            lambda payload: run_batch(payload, lambda r: check_request(r, resolve_rules=resolve_rules))
        )
