"""``python manage.py load_demo``: demo data for the embedded default. Safe to run again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scoring.services.demo import load_demo


class Command(BaseCommand):
    help = "Nạp dữ liệu mẫu (lệ làng mẫu, câu lạc bộ, người chơi, canh bài). Chạy lại không tạo trùng."

    def handle(self, *args: Any, **options: Any) -> None:
        summary = load_demo()
        self.stdout.write("Dữ liệu mẫu: " + ", ".join(f"{k} {v}" for k, v in summary.items()))
