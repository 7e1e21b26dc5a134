"""Organiser admin. The ledger is read-only here: points move only through the services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from scoring.models import (
    Club,
    Hoi,
    IdempotencyKey,
    LedgerTransaction,
    Player,
    Posting,
    RuleSetSnapshot,
    Seat,
    Sitting,
    Van,
    VillageRuleSet,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Shows rows, never adds, edits or deletes them (the database refuses edits anyway)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "kind")
    list_filter = ("kind",)
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club", "created_at")
    list_filter = ("club",)
    search_fields = ("name",)


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "name", "player")


class HoiInline(ReadOnlyInline):
    model = Hoi
    fields = ("index", "opened_before_van", "closed_after_van")


@admin.register(Sitting)
class SittingAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "game", "mode", "club", "created_by", "created_at", "ended_at")
    list_filter = ("game", "mode", "club")
    inlines = [SeatInline, HoiInline]


@admin.register(Van)
class VanAdmin(ReadOnlyAdmin):
    list_display = (
        "sitting",
        "seq",
        "outcome",
        "winner",
        "streak",
        "points",
        "is_current",
        "entered_by",
        "created_at",
    )
    list_filter = ("outcome", "is_current")
    list_select_related = ("sitting", "winner", "entered_by")


class PostingInline(ReadOnlyInline):
    model = Posting
    fields = ("line", "account", "seat", "amount", "why")


@admin.register(LedgerTransaction)
class LedgerTransactionAdmin(ReadOnlyAdmin):
    list_display = ("pk", "sitting", "kind", "van", "reason", "reverses", "created_by", "created_at")
    list_filter = ("kind",)
    list_select_related = ("sitting", "van", "reverses", "created_by")
    inlines = [PostingInline]


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(ReadOnlyAdmin):
    list_display = ("key", "operation", "status", "created_at")
    search_fields = ("key",)


@admin.register(RuleSetSnapshot)
class RuleSetSnapshotAdmin(ReadOnlyAdmin):
    list_display = ("fingerprint", "preset", "created_at")


@admin.register(VillageRuleSet)
class VillageRuleSetAdmin(ReadOnlyAdmin):
    """Edited on the lệ làng pages, which validate the rules and keep the snapshot in step."""

    list_display = ("name", "slug", "preset", "updated_at")
