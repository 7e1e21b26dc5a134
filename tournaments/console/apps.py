from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments.console"
    label = "console"
    verbose_name = "Tổ Tôm Điếm: Trung Quân và màn hình"

    def ready(self) -> None:
        from scoring.backup import register_part
        from tournaments.console.backup import PART

        register_part(PART)  # a table's own sitting backup carries its console
