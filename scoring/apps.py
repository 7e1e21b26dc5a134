from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = "Tính điểm và sổ điểm"

    def ready(self) -> None:
        from scoring import permissions  # noqa: F401  (registers the object-level rules)
        from scoring.i18n import install_engine_translator
        from scoring.reports import renderers  # noqa: F401  (the big reports the bulk lane renders)
        from scoring.services.ratings import on_sitting_changed
        from scoring.services.sittings import sitting_changed

        install_engine_translator()
        # A ván recorded or corrected in a club's canh updates the club's ratings (Celery, coalesced).
        sitting_changed.connect(on_sitting_changed, dispatch_uid="scoring.ratings.on_sitting_changed")
