from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = "Tính điểm và sổ điểm"

    def ready(self) -> None:
        from scoring import permissions  # noqa: F401  (registers the object-level rules)
        from scoring.i18n import install_engine_translator

        install_engine_translator()
