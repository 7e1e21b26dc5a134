"""API routes of the console, included under ``api/v1/``."""

from django.urls import path

from tournaments.console.api import TableSignalsView

urlpatterns = [
    path("tables/<int:table_id>/signals", TableSignalsView.as_view(), name="table-signals"),
]
