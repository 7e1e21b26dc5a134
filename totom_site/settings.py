"""One env-driven settings module.

Every setting that differs between the embedded default (SQLite, Celery on kombu's filesystem
broker, no external servers) and a scaled deployment (PostgreSQL, Redis, several app servers)
is read from the environment (or a `.env` file) with django-environ. Nothing here sniffs the
environment to guess where it runs.
"""

from pathlib import Path
from urllib.parse import urlsplit

import environ
from csp import constants as csp

from totom_site.dbtime import bounded
from totom_site.install import install_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()
if (BASE_DIR / ".env").exists():
    environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

DEBUG = env.bool("DJANGO_DEBUG", default=False)
# The deployment's key, else the installation's own, made once under var/ (mode 600) and kept
# (totom_site/install.py): never a key written in the repository.
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or install_secret_key(
    Path(env.str("DJANGO_SECRET_KEY_FILE", default=str(VAR_DIR / "secret_key")))
)
# `make run HOST=0.0.0.0` sets this to the machine's own addresses and names when it is not set
# (totom_site/lan.py), so phones on the festival's LAN are answered.
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "template_partials",
    "rules",
    "simple_history",
    "scoring",
    "tournaments",
    "django_eventstream",
    "tournaments.console",
    "tournaments.online",
    "csp",
]

MIDDLEWARE = [
    # Headers the request's origin cannot honour (COOP on plain HTTP on the LAN) are dropped from
    # the answer after SecurityMiddleware added them (scoring/middleware.py).
    "scoring.middleware.TrustworthyOriginMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "scoring.i18n.ApiLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Vary: HX-Request on every answer (pages render a partial for htmx): scoring/htmx.py.
    "scoring.htmx.VaryOnHtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Idempotency keys belong to the request's caller; ids in URLs beyond 64 bits: 404 before any
    # view (scoring/middleware.py).
    "scoring.middleware.CallerMiddleware",
    "scoring.middleware.IdRangeMiddleware",
    # An account over its hourly quota (scoring/services/quotas.py): the pages' 429.
    "scoring.middleware.QuotaMiddleware",
    # The device cookie the sign-in lock-out counts clients by (scoring/devices.py).
    "scoring.devices.DeviceCookieMiddleware",
    # A view's statement cancelled by its time bound (DATABASE_STATEMENT_TIMEOUT_MS): 503, logged.
    "scoring.middleware.StatementTimeoutMiddleware",
]

ROOT_URLCONF = "totom_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # plain_lan: a page on the LAN's plain HTTP (scoring/middleware.py)
                "scoring.middleware.origin",
            ],
        },
    },
]

WSGI_APPLICATION = "totom_site.wsgi.application"
ASGI_APPLICATION = "totom_site.asgi.application"

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'sotom.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Django's SQLite, with the ledger append-only there too (see totom_site/sqlite/base.py).
    DATABASES["default"]["ENGINE"] = "totom_site.sqlite"
    # SQLite as a single-machine server (Django >= 5.1; docs/reliability.md, "SQLite as the embedded
    # server", has the figures):
    # * journal_mode=WAL: readers never wait for the writer, nor the writer for readers;
    # * transaction_mode IMMEDIATE: every transaction.atomic takes the write lock when it begins, so
    #   concurrent writers queue for it (up to `timeout` seconds) instead of failing at once with
    #   "database is locked", as a transaction that has read and then writes does when another
    #   wrote meanwhile (SQLite cannot make it wait: its snapshot is stale). SQLite has no row locks
    #   (select_for_update sends nothing); the write lock serialises the same critical sections;
    # * synchronous=FULL: a commit is on disk before the phone is answered, so a power cut cannot
    #   take back a ván its phone has already dropped from its queue (NORMAL only survives the app
    #   crashing; measured here 0.05 ms a commit with NORMAL, 5.7 ms with FULL);
    # * timeout: SQLite's busy timeout, how long a writer waits for the lock before an error.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL",
        }
    )
    # The test database: in memory unless named (a file lets subprocesses, such as a Celery worker
    # or an app server started by a test, share it; see tests/subprocesses.py).
    if env.str("DATABASE_TEST_NAME", default=""):
        DATABASES["default"]["TEST"] = {"NAME": env.str("DATABASE_TEST_NAME")}
elif env.int("DATABASE_POOL_SIZE", default=0) > 0:
    # PostgreSQL behind an app server: each process keeps up to DATABASE_POOL_SIZE connections open
    # (psycopg's pool, Django's "pool" option) instead of opening one per request. Under ASGI this
    # replaces CONN_MAX_AGE, which Django does not support there. Off (0) unless set.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": env.int("DATABASE_POOL_SIZE"),
        "timeout": 10,
    }
# Time bounds of PostgreSQL statements (totom_site/dbtime.py), in milliseconds, 0 = none: a request's
# statement running longer is cancelled (the request answers 503: scoring/middleware.py), a session
# idle inside a transaction longer is ended (its row locks released). Set on the connection's startup
# options, so psycopg's pool opens every connection with them. Off unless set: the app servers that
# totom_site/serve.py starts set 30000 and 60000 (management commands, such as a migration on a big
# table, stay unbounded); a Celery worker replaces them with DATABASE_WORKER_STATEMENT_TIMEOUT_MS
# (none by default; totom_site/celery.py, dbtime.unbound_worker says why).
DATABASE_STATEMENT_TIMEOUT_MS = env.int("DATABASE_STATEMENT_TIMEOUT_MS", default=0)
DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS = env.int("DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS", default=0)
DATABASE_WORKER_STATEMENT_TIMEOUT_MS = env.int("DATABASE_WORKER_STATEMENT_TIMEOUT_MS", default=0)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and (
    DATABASE_STATEMENT_TIMEOUT_MS or DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS
):
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["options"] = bounded(
        _options.get("options", ""),
        statement_ms=DATABASE_STATEMENT_TIMEOUT_MS,
        idle_ms=DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Vietnamese first: unprefixed URLs are Vietnamese, /en/... English (see urls.py).
LANGUAGE_CODE = "vi"
LANGUAGES = [("vi", "Tiếng Việt"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("DJANGO_TIME_ZONE", default="Asia/Ho_Chi_Minh")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": env.str(
            "DJANGO_STATICFILES_STORAGE",
            default="django.contrib.staticfiles.storage.StaticFilesStorage",
        )
    },
}

CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}
# The rate limits of platform tokens (DRF throttling, tournaments/online/auth.py) count in the
# "throttle" cache. In one process's memory (the default, fine for `make run`'s single app server)
# each app server would count on its own: behind several app servers set CACHE_URL (Redis,
# "redis://host:6379/1", or the database, "dbcache://sotom_cache" after `manage.py createcachetable`);
# without CACHE_URL, REDIS_URL's Redis is used when set (docs/api.md, "Rate limits").
if env.str("CACHE_URL", default=""):
    CACHES["throttle"] = env.cache("CACHE_URL")
elif env.str("REDIS_URL", default=""):
    CACHES["throttle"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env.str("REDIS_URL"),
        "KEY_PREFIX": "sotom-throttle",
    }
else:
    CACHES["throttle"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle"}
# Rendered template fragments ({% cache … using="fragments" %}: the page frame, the calculator's
# chips): each is a function of its key (the language and what it shows), the code and the
# catalogues, so it is kept in the memory of the process that rendered it, never in a shared cache:
# a deploy starts empty, no other release's markup is ever served, and a hit costs no round trip.
CACHES["fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "fragments",
    "TIMEOUT": None,
    "OPTIONS": {"MAX_ENTRIES": 1000},
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "scoring.api.auth.SessionAuthentication",
        "scoring.api.auth.TokenAuthentication",
        "tournaments.online.auth.BearerAuthentication",
    ],
    # Platform tokens only (a call with an account's session or token is not throttled here).
    "DEFAULT_THROTTLE_CLASSES": ["tournaments.online.auth.PlatformThrottle"],
    "DEFAULT_THROTTLE_RATES": {"platform": env.str("PLATFORM_TOKEN_RATE", default="600/minute")},
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON as DRF reads it, refusing (400) what cannot be stored or answered (scoring/api/parsers.py).
    "DEFAULT_PARSER_CLASSES": [
        "scoring.api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # One error path: every refusal of the project's API views is {"error": …} in the request's language.
    "EXCEPTION_HANDLER": "scoring.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Sổ Tôm API",
    "DESCRIPTION": "Điểm và dịch cho Tổ Tôm, Chắn, Tài Bàn, Phỏm. Scoring for Tổ Tôm and its family.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No deep links: Swagger UI puts each operation's link inside its summary button (a control
    # nested in a control, and a 19 px touch target), which axe-core refuses.
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "persistAuthorization": True, "displayOperationId": True},
    # Choice sets that share a field name with another component's (kind, status): named here.
    "ENUM_NAME_OVERRIDES": {
        "EventKindEnum": "tournaments.models.EventKind",
        "RegistrationStatusEnum": "tournaments.models.RegistrationStatus",
    },
}

# Celery: the embedded default is kombu's filesystem transport (a real worker, no Redis);
# production and the full test suite set CELERY_BROKER_URL=redis://...
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="filesystem://")
FS_BROKER_DIR = Path(env.str("CELERY_FS_BROKER_DIR", default=str(VAR_DIR / "broker")))
CELERY_BROKER_TRANSPORT_OPTIONS = (
    {
        "data_folder_in": str(FS_BROKER_DIR / "queue"),
        "data_folder_out": str(FS_BROKER_DIR / "queue"),
        "processed_folder": str(FS_BROKER_DIR / "processed"),
        "control_folder": str(FS_BROKER_DIR / "control"),
        "store_processed": False,
    }
    if CELERY_BROKER_URL.startswith("filesystem")
    # Redis: a task whose whole worker died is handed out again after this many seconds (kombu's
    # default is an hour, far too long for a festival's leaderboard): a recompute takes under a
    # second, the longest eta is the 1 s debounce, and running one twice is harmless (idempotent),
    # so 30 s. Workers look for such tasks every 5 s (kombu: every 100 s by default). A worker that
    # starts also catches up every board behind its ledger at once (tournaments/tasks.py).
    # Measured in tests/reliability/test_worker_kill.py (docs/reliability.md).
    else {
        "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=30),
        "unacked_restore_interval": 5,
        "unacked_restore_throttle": 1,
    }
)
# No result backend: every task writes its outcome to the database itself (ignore_result).
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# Lanes (docs/scaling.md): one queue per kind of work, each with its own worker(s), so a
# stranger's import or a slow webhook receiver never waits in front of a festival's leaderboard.
# ``live``: leaderboard recomputes, board sweeps, club ratings (the default: a task not routed
# below runs there); ``webhooks``: deliveries to receivers outside; ``bulk``: imports, reports,
# big exports, replays (a task's name says its lane: ``bulk.…``, ``webhooks.…``).
CELERY_TASK_DEFAULT_QUEUE = "live"
CELERY_TASK_ROUTES = ("totom_site.celery.route_by_name",)

# Imports (POST /api/v1/sittings/import, docs/api.md): above this many ván an import is a job on
# the bulk lane (202, GET /api/v1/jobs/{id}); up to it, answered in the request (201).
IMPORT_JOB_THRESHOLD = env.int("IMPORT_JOB_THRESHOLD", default=200)
# The largest JSON body the API reads (413 above it): a whole sitting of MAX_VAN ván fits.
API_MAX_BODY_BYTES = env.int("API_MAX_BODY_BYTES", default=4 * 1024 * 1024)

# Webhooks (tournaments/online, docs/api.md): a URL on a private, loopback or link-local address is
# refused, at registration and again on the address every delivery connects to, unless this is set
# (a receiver on the LAN; the test suite's receiver on 127.0.0.1, set by its fixtures only).
WEBHOOK_ALLOW_PRIVATE_ADDRESSES = env.bool("WEBHOOK_ALLOW_PRIVATE_ADDRESSES", default=False)
#: Seconds for a whole delivery: connect, TLS, send and the answer (not per read).
WEBHOOK_TIMEOUT = env.float("WEBHOOK_TIMEOUT", default=5.0)
#: Bytes of a receiver's answer read at most (only its status matters).
WEBHOOK_MAX_ANSWER = env.int("WEBHOOK_MAX_ANSWER", default=64 * 1024)
#: Attempts per delivery; retry n waits WEBHOOK_RETRY_SECONDS × 3^(n-1) (at most
#: WEBHOOK_RETRY_MAX_SECONDS), of which a random half to the whole (jitter).
WEBHOOK_MAX_ATTEMPTS = env.int("WEBHOOK_MAX_ATTEMPTS", default=6)
WEBHOOK_RETRY_SECONDS = env.float("WEBHOOK_RETRY_SECONDS", default=30.0)
WEBHOOK_RETRY_MAX_SECONDS = env.float("WEBHOOK_RETRY_MAX_SECONDS", default=3600.0)
#: The circuit breaker: a hook is paused after this many failed attempts in a row.
WEBHOOK_PAUSE_AFTER = env.int("WEBHOOK_PAUSE_AFTER", default=5)
#: Per club or event: webhooks switched on, and test sends ("Gửi thử") in any minute.
WEBHOOK_HOOKS_PER_OWNER = env.int("WEBHOOK_HOOKS_PER_OWNER", default=5)
WEBHOOK_TESTS_PER_MINUTE = env.int("WEBHOOK_TESTS_PER_MINUTE", default=3)

LOGIN_URL = "login"  # a URL name: English pages send to /en/dang-nhap/
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# Object-level permissions (the ``rules`` package: scoring/permissions.py, tournaments/permissions.py)
# before the model backend, so ``user.has_perm("scoring.keep_score", sitting)`` asks the predicates.
AUTHENTICATION_BACKENDS = [
    "rules.permissions.ObjectPermissionBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# Live audience display (tournaments.console): SSE by django-eventstream. Events are stored in the
# database so a display that reconnects resumes from Last-Event-ID. Without GRIP_URL the streams are
# held by the app processes (in-process SSE, `make run`'s layout); with REDIS_URL set, events sent
# from any process (Celery, another app server) then reach every display through Redis.
EVENTSTREAM_STORAGE_CLASS = "tournaments.console.broadcast.DisplayEventStorage"
# Stored display events are kept this many seconds (a display away longer is sent a snapshot of its
# table instead of what it missed), trimmed every DISPLAY_EVENT_TRIM_EVERY seconds on the bulk lane,
# DISPLAY_EVENT_TRIM_BATCH rows a DELETE (tournaments/console/services/retention.py).
DISPLAY_EVENT_RETENTION = env.int("DISPLAY_EVENT_RETENTION", default=3600)
DISPLAY_EVENT_TRIM_EVERY = env.int("DISPLAY_EVENT_TRIM_EVERY", default=300)
DISPLAY_EVENT_TRIM_BATCH = env.int("DISPLAY_EVENT_TRIM_BATCH", default=10_000)
# Periodic tasks (celery beat: its own process in production, embedded in `make run`'s bulk worker).
CELERY_BEAT_SCHEDULE = {
    "trim-display-events": {"task": "bulk.trim_display_events", "schedule": DISPLAY_EVENT_TRIM_EVERY},
}
# A table's channel is as visible as its event (a private event's display is not public).
EVENTSTREAM_CHANNELMANAGER_CLASS = "tournaments.console.broadcast.DisplayChannels"
EVENTSTREAM_ALLOW_ORIGINS = env.list("EVENTSTREAM_ALLOW_ORIGINS", default=[])
# GRIP_URL set (Pushpin in front of the app: totom_site/pushpin.py, docs/scaling.md): a display's
# stream is held by Pushpin; the app answers the events the display missed and a GRIP hold, then is
# free, and each event is published once to Pushpin, which sends it to every display it holds. No
# app process then reads display events from Redis. Its verify-key is the key Pushpin signs proxied
# requests with: a stream request is GRIP only when Pushpin signed it.
GRIP_URL = env.str("GRIP_URL", default="")
if GRIP_URL:
    MIDDLEWARE.insert(0, "django_grip.GripMiddleware")
elif env.str("REDIS_URL", default=""):
    _redis_url = urlsplit(env.str("REDIS_URL"))
    EVENTSTREAM_REDIS = {
        "host": _redis_url.hostname or "127.0.0.1",
        "port": _redis_url.port or 6379,
        "db": int(_redis_url.path.strip("/") or 0),
        **({"password": _redis_url.password} if _redis_url.password else {}),
    }
# An event's public board is pushed to its pages (tournaments/board.py) wherever a push can travel
# from the Celery worker that makes the board to the viewers (Pushpin, or Redis to every app
# process); without either (`make run`) the pages ask every 2 s.
BOARD_PUSH = env.bool("BOARD_PUSH", default=bool(GRIP_URL or env.str("REDIS_URL", default="")))

# Content-Security-Policy (django-csp 4) on every answer: scripts, styles, images, fonts and
# connections from this site only; the few inline <style> blocks (a console's flag colours, Swagger
# UI's page, the PDF templates) carry the request's nonce; no inline script, no style attribute, no
# eval anywhere (htmx is told not to inject its indicator style: static/js/htmx-setup.js). Held by
# tests/reliability/test_probe_csp.py (no violation on the main pages; a script without the nonce is
# blocked).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [csp.SELF],
        "script-src": [csp.SELF, csp.NONCE],
        "style-src": [csp.SELF, csp.NONCE],
        "img-src": [csp.SELF, "data:"],
        "font-src": [csp.SELF],
        "connect-src": [csp.SELF],
        "worker-src": [csp.SELF],
        "manifest-src": [csp.SELF],
        "object-src": [csp.NONE],
        "base-uri": [csp.SELF],
        "form-action": [csp.SELF],
        "frame-ancestors": [csp.NONE],
    },
}

if not DEBUG:
    SESSION_COOKIE_HTTPONLY = True
    X_FRAME_OPTIONS = "DENY"
    SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=False)
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# HSTS (docs/reliability.md): off by default (a club laptop serves plain HTTP on the LAN); a
# deployment behind TLS sets these. Behind a TLS-terminating proxy, also set
# DJANGO_SECURE_PROXY_SSL_HEADER=HTTP_X_FORWARDED_PROTO,https so the SSL redirect does not loop.
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=False)
if env.str("DJANGO_SECURE_PROXY_SSL_HEADER", default=""):
    SECURE_PROXY_SSL_HEADER = tuple(env.list("DJANGO_SECURE_PROXY_SSL_HEADER"))
elif env.str("SOTOM_TLS_TOKEN", default=""):
    # `make run HOST=0.0.0.0`: the LAN's HTTPS listener (totom_site/tls.py) marks what it passes on
    # with this run's secret; a plain-HTTP request cannot carry it.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_SOTOM_TLS", env.str("SOTOM_TLS_TOKEN"))
# The LAN's HTTPS (totom_site/serve.py sets these for the app it starts): the port phones use and
# the folder of the local CA that /mang-noi-bo/ offers (scoring/offline/lan.py).
SOTOM_HTTPS_PORT = env.int("SOTOM_HTTPS_PORT", default=0) if env.str("SOTOM_TLS_TOKEN", default="") else 0
SOTOM_TLS_DIR = Path(env.str("SOTOM_TLS_DIR", default=str(VAR_DIR / "tls")))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="WARNING")},
}

# Big reports: a PDF or XLSX of a sitting or an event with more ván than this is
# rendered on the bulk lane as a job (the page shows its progress, then the file) and kept by the
# ledger version it shows; smaller ones are built in the request as before. At most
# REPORT_MAX_RENDERS render at once (more wait in the queue); a render silent (no progress, no
# heartbeat) for REPORT_RENDER_TIMEOUT seconds is taken to be dead and rendered again; files are
# kept REPORT_FILE_KEEP_HOURS (an older version is deleted as soon as a newer one is done).
REPORT_JOB_MIN_VAN = env.int("REPORT_JOB_MIN_VAN", default=300)
REPORT_MAX_RENDERS = env.int("REPORT_MAX_RENDERS", default=2)
REPORT_RENDER_TIMEOUT = env.int("REPORT_RENDER_TIMEOUT", default=60)
REPORT_FILE_KEEP_HOURS = env.int("REPORT_FILE_KEEP_HOURS", default=24)

# Quotas of an account per hour (scoring/services/quotas.py): far above what a
# real club does, low enough to stop a script. In the account's own club or festival (its
# organisers) every quota but clubs is QUOTA_OWN_FACTOR times higher. Over a quota: 429, Retry-After.
QUOTA_CLUBS_PER_HOUR = env.int("QUOTA_CLUBS_PER_HOUR", default=5)
QUOTA_IMPORTS_PER_HOUR = env.int("QUOTA_IMPORTS_PER_HOUR", default=10)
QUOTA_IMPORTED_VAN_PER_HOUR = env.int("QUOTA_IMPORTED_VAN_PER_HOUR", default=5000)
QUOTA_VAN_PER_HOUR = env.int("QUOTA_VAN_PER_HOUR", default=600)
QUOTA_OWN_FACTOR = env.int("QUOTA_OWN_FACTOR", default=20)
