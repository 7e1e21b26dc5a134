"""Admin: a village adds its own signals here; signals given are shown, never edited."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.console.models import FestivalTable, Signal, SignalEvent


@admin.register(Signal)
class SignalAdmin(admin.ModelAdmin):
    list_display = ("label", "display", "slug", "kind", "pattern", "effect", "club", "order", "is_active")
    list_filter = ("kind", "effect", "is_active", "club")
    list_editable = ("order", "is_active")
    search_fields = ("slug", "label", "display", "meaning")
    prepopulated_fields = {"slug": ("label",)}


@admin.register(FestivalTable)
class FestivalTableAdmin(admin.ModelAdmin):
    list_display = ("name", "sitting", "trung_quan", "van_seq", "dealer", "noc_left", "created_at")
    raw_id_fields = ("sitting", "event_table")
    autocomplete_fields = ()
    readonly_fields = ("announcement", "created_at", "created_by")


@admin.register(SignalEvent)
class SignalEventAdmin(admin.ModelAdmin):
    list_display = ("created_at", "table", "sitting", "van_seq", "seat", "signal", "noc_left", "created_by")
    list_filter = ("signal",)
    date_hierarchy = "created_at"

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
