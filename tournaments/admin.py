from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import Event, Leaderboard, Registration, Round, Table


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ("player",)
    readonly_fields = ("token", "checked_in_at")


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "lunar_label", "game", "is_public", "finished_at")
    search_fields = ("name", "slug")
    filter_horizontal = ("organisers",)
    readonly_fields = ("ledger_seq", "recompute_due_at", "rules")
    inlines = [RegistrationInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # events are created by tournaments.services.events.event_create (the page)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("event", "number", "method", "remainder", "created_at")
    list_filter = ("event",)


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("event", "round", "number", "sitting")
    raw_id_fields = ("sitting",)


@admin.register(Leaderboard)
class LeaderboardAdmin(admin.ModelAdmin):
    list_display = ("event", "version", "ledger_seq", "computed_at", "van_count", "duration_ms")
    readonly_fields = ("version", "ledger_seq", "computed_at", "rows", "teams", "van_count", "duration_ms")
