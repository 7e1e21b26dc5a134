"""``python manage.py load_demo [--with-demo-user]``: demo data for the embedded default. Safe to run again."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from scoring.services.demo import DEMO_CLUB, DEMO_PASSWORD, DEMO_USERNAME, load_demo


class Command(BaseCommand):
    help = (
        "Nạp dữ liệu mẫu (lệ làng mẫu; với --with-demo-user hoặc khi DEBUG: tài khoản chủ sổ mẫu, "
        "làng mẫu với vài canh bài, và hội làng mẫu với các chiếu, bàn Trung Quân và bảng điểm). "
        "Chạy lại không tạo trùng."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--with-demo-user",
            action="store_true",
            help=f"Tạo tài khoản mẫu {DEMO_USERNAME} (mật khẩu {DEMO_PASSWORD}), chủ sổ của làng mẫu và "
            "ban tổ chức của hội làng mẫu (luôn tạo khi DEBUG bật).",
        )
        parser.add_argument(
            "--base-url",
            default="",
            help="Địa chỉ của ứng dụng (http://máy:cổng), để in đủ địa chỉ các trang nên mở trước.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with_user = bool(options["with_demo_user"] or settings.DEBUG)
        loaded = load_demo(with_user=with_user)
        self.stdout.write("Dữ liệu mẫu: " + ", ".join(f"{k} {v}" for k, v in loaded.counts.items()))
        if with_user:
            self.stdout.write(
                f"Tài khoản mẫu: {DEMO_USERNAME} / mật khẩu {DEMO_PASSWORD} (chủ sổ của {DEMO_CLUB['name']}, "
                "ban tổ chức và Trung Quân của hội làng mẫu). Đăng nhập ở /dang-nhap/. "
                "Tài khoản này chỉ để dùng thử: mật khẩu ai cũng biết."
            )
            self.stdout.write("Mở trước các trang:")
            base = str(options["base_url"]).rstrip("/")
            for label, path in loaded.pages:
                self.stdout.write(f"  {base + path:<{len(base) + 34}} {label}")
