from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Giải đấu và hội làng"

    def ready(self) -> None:
        from scoring.backup import register_part
        from scoring.services.sittings import sitting_written
        from tournaments import (
            board,
            permissions,  # noqa: F401  (registers the object-level rules)
            reports,  # noqa: F401  (the big event reports the bulk lane renders)
        )
        from tournaments.backup import PART
        from tournaments.errors import register_all
        from tournaments.selectors import audit  # noqa: F401  (names table tokens in the sổ điểm's audit)
        from tournaments.services.van import on_sitting_written

        # Every write to an event's canh bumps its leaderboard, in the write's own transaction.
        sitting_written.connect(on_sitting_written, dispatch_uid="tournaments.on_sitting_written")
        register_part(PART)  # the ``event`` kind of backup file
        register_all()  # the app's error classes in the one status table (scoring/errors.py)
        board.connect()  # each new board, and the event's end, pushed to its pages
