"""Pages of the online app (under the language prefix): a club's and an event's connections."""

from django.urls import path

from tournaments.online import views

app_name = "online"

PLACES = {"club": "lang/<slug:slug>/ket-noi/", "event": "giai/<slug:slug>/quan-ly/ket-noi/"}

urlpatterns = []
for kind, base in PLACES.items():
    urlpatterns += [
        path(base, views.connections, {"kind": kind}, name=f"{kind}_connections"),
        path(f"{base}ma/", views.token_new, {"kind": kind}, name=f"{kind}_token_new"),
        path(f"{base}ma/<int:token_id>/thu-hoi/", views.token_end, {"kind": kind}, name=f"{kind}_token_end"),
        path(f"{base}webhook/", views.hook_new, {"kind": kind}, name=f"{kind}_hook_new"),
        path(f"{base}webhook/<int:hook_id>/", views.hook_log, {"kind": kind}, name=f"{kind}_hook_log"),
        path(f"{base}webhook/<int:hook_id>/tat/", views.hook_end, {"kind": kind}, name=f"{kind}_hook_end"),
        path(
            f"{base}webhook/<int:hook_id>/gui-thu/", views.hook_test, {"kind": kind}, name=f"{kind}_hook_test"
        ),
        path(
            f"{base}webhook/<int:hook_id>/tiep-tuc/",
            views.hook_resume,
            {"kind": kind},
            name=f"{kind}_hook_resume",
        ),
    ]
