"""URLs by audience: pages (Vietnamese unprefixed, English under /en/), the API, the admin."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog, set_language
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from scoring.views import accounts, site
from tournaments.console.views import display
from tournaments.views import public

# The admin's sign-in goes through the site's lock-out after too many wrong passwords.
admin.site.login_form = accounts.AdminSignInForm

urlpatterns = [
    path("favicon.ico", site.favicon, name="favicon"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("api/v1/", include(("scoring.api.urls", "api"), namespace="api")),
    path("api/v1/", include(("tournaments.console.api_urls", "console-api"), namespace="console-api")),
    path("api/v1/", include(("tournaments.api.urls", "events-api"), namespace="events-api")),
    # Live audience display of a festival table: one SSE channel per table (django-eventstream),
    # as visible as the table's event.
    path("su-kien/ban/<int:table_id>/", display.events, name="console-events"),
    # An event's public board, pushed to its pages (tournaments/board.py): one channel per page and
    # language, as visible as the event. Every stream, and nothing else, is under su-kien/ (asgi.py).
    path(
        "su-kien/bang/<slug:slug>/<slug:page_slug>/<str:language>/", public.board_events, name="board-events"
    ),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI with its start-up script served as a file (no inline script: Content-Security-Policy).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
]

urlpatterns += i18n_patterns(
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("admin/", admin.site.urls),
    path("dang-nhap/", accounts.LoginPage.as_view(), name="login"),
    path("dang-xuat/", accounts.logout_view, name="logout"),
    path("dang-ky/", accounts.signup, name="signup"),
    path("", include(("tournaments.urls", "tournaments"), namespace="tournaments")),
    path("", include(("tournaments.console.urls", "console"), namespace="console")),
    path("", include(("tournaments.online.urls", "online"), namespace="online")),
    path("", include(("scoring.urls", "scoring"), namespace="scoring")),
    prefix_default_language=False,
)

handler400 = "scoring.views.errors.bad_request"
handler404 = "scoring.views.errors.not_found"
handler403 = "scoring.views.errors.permission_denied"
