"""API routes of the events app, included under ``api/v1/`` (namespace ``events-api``)."""

from django.urls import path

from tournaments.api import events
from tournaments.api.imports import JobView, SittingImportView

urlpatterns = [
    path("events", events.EventsView.as_view(), name="events"),
    path("events/<slug:slug>", events.EventDetailView.as_view(), name="event"),
    path("events/<slug:slug>/standings", events.StandingsView.as_view(), name="event-standings"),
    path("events/<slug:slug>/tables", events.TablesView.as_view(), name="event-tables"),
    path("events/<slug:slug>/registrations", events.RegistrationsView.as_view(), name="event-registrations"),
    path("events/<slug:slug>/rounds", events.RoundsView.as_view(), name="event-rounds"),
    path("sittings/import", SittingImportView.as_view(), name="sittings-import"),
    path("jobs/<int:pk>", JobView.as_view(), name="job"),
]
