"""``python manage.py load_demo [--with-demo-user]``: demo data for the embedded default. Safe to run again."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from scoring.services.demo import DEMO_CLUB, DEMO_PASSWORD, DEMO_USERNAME, load_demo


class Command(BaseCommand):
    help = ("Nạp dữ liệu mẫu (lệ làng mẫu; với --with-demo-user hoặc khi DEBUG: tài khoản chủ sổ mẫu, "
            "làng mẫu và một canh bài). Chạy lại không tạo trùng.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--with-demo-user", action="store_true",
            help=f"Tạo tài khoản mẫu {DEMO_USERNAME} (mật khẩu {DEMO_PASSWORD}), chủ sổ của làng mẫu "
                 "(luôn tạo khi DEBUG bật).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with_user = bool(options["with_demo_user"] or settings.DEBUG)
        summary = load_demo(with_user=with_user)
        self.stdout.write("Dữ liệu mẫu: " + ", ".join(f"{k} {v}" for k, v in summary.items()))
        if with_user:
            self.stdout.write(
                f"Tài khoản mẫu: {DEMO_USERNAME} / mật khẩu {DEMO_PASSWORD} (chủ sổ của {DEMO_CLUB['name']}). "
                "Đăng nhập ở /dang-nhap/. Tài khoản này chỉ để dùng thử: mật khẩu ai cũng biết."
            )
