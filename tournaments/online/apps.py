from django.apps import AppConfig


class OnlineConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments.online"
    label = "online"
    verbose_name = "Chơi trực tuyến: mã nền tảng, webhook, nhập canh bài"

    def ready(self) -> None:
        from tournaments.online import auth, selectors  # noqa: F401  (the schema's Bearer scheme; audit sources)
        from tournaments.online.services import webhooks

        webhooks.connect()
