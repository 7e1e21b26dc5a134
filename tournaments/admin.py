from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import Event, Leaderboard, Registration, Round, ScorekeeperToken, Table, TableSitting


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ("player",)
    readonly_fields = ("token", "checked_in_at", "changed_seq")
    #: Registrations change through the services (they bump the leaderboard): no add or delete here.
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "lunar_label", "game", "is_public", "finished_at")
    search_fields = ("name", "slug")
    filter_horizontal = ("organisers",)
    #: The confirmation options are chosen at creation: the stored standings and their caches were
    #: counted under them (ván confirmed only, or every ván).
    readonly_fields = (
        "ledger_seq",
        "recompute_due_at",
        "rules",
        "confirmation_required",
        "count_confirmed_only",
    )
    inlines = [RegistrationInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # events are created by tournaments.services.events.event_create (the page)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ("event", "number", "method", "remainder", "created_at")
    list_filter = ("event",)


class TableSittingInline(admin.TabularInline):
    model = TableSitting
    extra = 0
    can_delete = False
    readonly_fields = ("number", "sitting", "changed_seq", "van", "van_stamp")
    exclude = ("event",)

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class TokenInline(admin.TabularInline):
    model = ScorekeeperToken
    extra = 0
    can_delete = False
    readonly_fields = ("pin", "label", "created_by", "created_at", "revoked_at")
    exclude = ("secret",)

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("event", "round", "number", "sitting", "ends_at", "closed_at")
    raw_id_fields = ("sitting",)
    readonly_fields = ("sitting", "closed_at")
    inlines = [TableSittingInline, TokenInline]


@admin.register(Leaderboard)
class LeaderboardAdmin(admin.ModelAdmin):
    list_display = (
        "event",
        "version",
        "ledger_seq",
        "computed_at",
        "van_count",
        "duration_ms",
        "built_by",
        "failed_at",
    )
    readonly_fields = (
        "version",
        "ledger_seq",
        "computed_at",
        "rows",
        "teams",
        "van_count",
        "duration_ms",
        "built_by",
        "failed_at",
        "failure",
    )
