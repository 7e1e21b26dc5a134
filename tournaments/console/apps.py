from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments.console"
    label = "console"
    verbose_name = "Tổ Tôm Điếm: Trung Quân và màn hình"
