"""Settings for cod_site, read from the environment with safe, zero-setup defaults.

- no DATABASE_URL: SQLite file in the project folder; `postgres://…`: PostgreSQL (psycopg 3).
- no REDIS_URL: Celery tasks run in-process and the cache is local memory;
  `redis://…`: Celery broker + result backend and Django's cache all use that Redis.
- DJANGO_SECURE=1 switches on the HTTPS-only settings that `check --deploy` asks for.
"""

from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from cod_site.env import env_bool, env_int, env_list, env_str, local_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY") or local_secret_key(BASE_DIR / ".secret_key")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])
# Under /api/ a failed CSRF check answers in the API's error shape; pages keep Django's page.
CSRF_FAILURE_VIEW = "cod_site.views.csrf_failure"

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
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "cod_site",
    "cod_site.accounts",
    "cards",
    "decks",
    "mutation",
    "champions",
    "engine",
    "grimoire",
    "play",
]

MIDDLEWARE = [
    "cod_site.middleware.SecurityPolicyMiddleware",
    "cod_site.middleware.RequestLimitsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "cod_site.middleware.NulCharacterMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "cod_site.i18n.ApiLanguageMiddleware",
    "cod_site.i18n.KeptLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "cod_site.middleware.SyncChainMiddleware",
]

ROOT_URLCONF = "cod_site.urls"
WSGI_APPLICATION = "cod_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "play.context_processors.turns",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
# PostgreSQL: a pool of connections per process (psycopg's), which a request takes from and gives
# back. Under ASGI (`make serve`) each request's sync code runs in a new thread, and a connection
# kept per thread (CONN_MAX_AGE) would be a new connection per request: PostgreSQL starts a process
# for each. DATABASE_POOL=0 keeps a connection per thread for DATABASE_CONN_MAX_AGE instead.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DATABASE_POOL", True
):
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": env_int("DATABASE_POOL_SIZE", 12),
        # A request waits this long for a connection, then fails (500) rather than hang.
        "timeout": 10,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Tests on SQLite get a file, not the shared-cache in-memory database: there a reader meets
    # a writer's table lock at once ("database table is locked") where a file waits for it, and
    # the simulation threads and live-server threads read while others write, as in `make run`.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".test-db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    CACHES = {
        "default": {
            # One Redis client per process, not per request (cod_site/cache.py).
            "BACKEND": "cod_site.cache.SharedRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "cod_site"),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# News of changes between processes (cod_site/broadcast.py: a table's move for its live streams):
# a Redis channel. Redis does not keep channels apart by database number, so the name carries it.
BROADCAST_CHANNEL = env_str(
    "BROADCAST_CHANNEL",
    f"{env_str('CACHE_KEY_PREFIX', 'cod_site')}:{REDIS_URL.rsplit('/', 1)[-1] or 0}:broadcast"
    if REDIS_URL
    else "",
)
# What only the code decides (template fragments such as the site's menu): each process's
# memory, never Redis, so a deployment's new processes never read what the old code rendered.
CACHES["local"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "process-local",
}

# Celery: eager (in-process) unless a broker is configured.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Chunked CPU-bound work: a worker process takes one task at a time so chunks spread evenly.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Celery's Django fixup closes the database connection around every task unless this is set: a
# reconnection per simulation chunk cost ~8 ms. cod_site.celery closes connections the way Django
# does around a request instead (CONN_MAX_AGE, unusable after an error, health check).
CELERY_DB_REUSE_MAX = 1_000_000
# A task taken by a worker that died unannounced goes back to the queue after this many seconds
# (longer than any task's time limit, or a slow task would run twice).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 3600)}
# Redis cannot bring back a message whose worker died between taking it and recording it as
# unacknowledged: the beat (`make worker` runs one) sends again the chunks of a batch idle for a
# visibility timeout. More beats than one only repeat a harmless look.
SIMULATION_SWEEP_SECONDS = env_int("SIMULATION_SWEEP_SECONDS", 60)
PLAY_TIMEOUT_SWEEP_SECONDS = env_int("PLAY_TIMEOUT_SWEEP_SECONDS", 60)
# The metagame (engine.metagame): how often the beat looks whether its decks changed, and how
# many of the most popular public decks it ranks.
METAGAME_REFRESH_SECONDS = env_int("METAGAME_REFRESH_SECONDS", 3600)
METAGAME_DECKS = env_int("METAGAME_DECKS", 16)
CELERY_BEAT_SCHEDULE = {
    "resend-lost-simulation-chunks": {
        "task": "engine.resend_lost_chunks",
        "schedule": SIMULATION_SWEEP_SECONDS,
        # Queued behind a long run of chunks, a sweep is stale once the next one is due.
        "options": {"expires": SIMULATION_SWEEP_SECONDS},
    },
    "resend-lost-suggestion-units": {
        "task": "engine.resend_lost_suggestion_units",
        "schedule": SIMULATION_SWEEP_SECONDS,
        "options": {"expires": SIMULATION_SWEEP_SECONDS},
    },
    # The metagame's round robin: a new one only when the popular public decks changed, and
    # then only the pairs where a deck changed are played again.
    "refresh-metagame": {
        "task": "engine.refresh_metagame",
        "schedule": METAGAME_REFRESH_SECONDS,
        "options": {"expires": METAGAME_REFRESH_SECONDS},
    },
    # A player out of time loses the game even if nobody comes back to act or claim it.
    "play-turn-timeouts": {
        "task": "play.apply_turn_timeouts",
        "schedule": PLAY_TIMEOUT_SWEEP_SECONDS,
        "options": {"expires": PLAY_TIMEOUT_SWEEP_SECONDS},
    },
    # A Duel of Chaos computer seat whose task was lost (a worker died) is asked again.
    "play-chaos-agents": {
        "task": "play.resend_chaos_agents",
        "schedule": PLAY_TIMEOUT_SWEEP_SECONDS,
        "options": {"expires": PLAY_TIMEOUT_SWEEP_SECONDS},
    },
}
# In memory: a sweep every minute needs no schedule file (which two beats on one machine would
# fight over) and nothing remembered across restarts.
CELERY_BEAT_SCHEDULER = "celery.beat:Scheduler"
# Apps sharing one Redis keep their tasks apart by queue name.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")

# Simulated test games: per-user limits, and the in-process threads used without a broker.
SIMULATION_MAX_ACTIVE_BATCHES = env_int("SIMULATION_MAX_ACTIVE_BATCHES", 3)
SIMULATION_MAX_GAMES_PER_DAY = env_int("SIMULATION_MAX_GAMES_PER_DAY", 300_000)
SIMULATION_THREADS = env_int("SIMULATION_THREADS", 2)
# How many of one batch's chunks may be queued or running at once (engine.services: a chunk
# written sends the next): twice the processes that play them (2 in `make worker` and in the
# thread pool), so a batch alone keeps every process busy, and a batch queued behind others waits
# for a few chunks of each, not for all of them. More worker processes: raise it to match.
SIMULATION_WAVE = env_int("SIMULATION_WAVE", 4)
# "Improve this deck" (engine.suggestions): searches one user may have running at once, and the
# games their budgets may add up to in 24 hours (else 429).
SUGGESTION_MAX_ACTIVE_SEARCHES = env_int("SUGGESTION_MAX_ACTIVE_SEARCHES", 1)
SUGGESTION_MAX_GAMES_PER_DAY = env_int("SUGGESTION_MAX_GAMES_PER_DAY", 2_000_000)
# Other slow work sent without a broker (cod_site.background.task_send: the Grimoire's solver).
BACKGROUND_THREADS = env_int("BACKGROUND_THREADS", 2)

# The Grimoire's solver: the signed-in user's rate of proofs (`POST .../solve/` and the editor's
# button, one budget), the proofs one user may have queued or running at once, and the solver's
# jobs (proofs and long attempts) queued or running at once for everyone (else 429).
GRIMOIRE_SOLVE_RATE = env_str("GRIMOIRE_SOLVE_RATE", "30/hour")
GRIMOIRE_MAX_ACTIVE_PROOFS = env_int("GRIMOIRE_MAX_ACTIVE_PROOFS", 2)
GRIMOIRE_MAX_ACTIVE_JOBS = env_int("GRIMOIRE_MAX_ACTIVE_JOBS", 20)

# Games at a table (play app): the lookahead agent's thinking budget in search nodes (its own
# default; at most 25 ms a move on this loaded 2-core machine, far inside the 1 s a computer seat
# has per action), and the turn after which a game that goes on is stopped as a draw.
PLAY_LOOKAHEAD_NODES = env_int("PLAY_LOOKAHEAD_NODES", 3000)
# The strong agent's budget: the 6,000 nodes the strength ladder rated it with (so "strongest" is
# the ladder's word for this very player); measured with the compiled engine on this shared
# 2-core machine, p95 67 ms and at most 112 ms a decision, Duel and Free-For-All.
PLAY_STRONG_NODES = env_int("PLAY_STRONG_NODES", 6000)
# Server-sent events: how long one stream stays open at most, then the page opens the next (a
# stopping server process ends its streams at once: cod_site/broadcast.py; why minutes: the doc
# of play/streams.py).
PLAY_STREAM_SECONDS = env_int("PLAY_STREAM_SECONDS", 300)
PLAY_STREAM_RECONNECT_MS = env_int("PLAY_STREAM_RECONNECT_MS", 300)
# A step of the turns played out on the board every PLAY_STEP_MS while it plays
# (play/static/play/assault.js): slow enough to follow an Assault. A setting, so that a browser
# test can hold the steps back for as long as it looks at them, however slow the machine.
PLAY_STEP_MS = env_int("PLAY_STEP_MS", 1100)
# Live streams open at once per client address and per account (cod_site/stream_slots.py);
# past them a stream is refused with a 429 and the page polls.
STREAMS_PER_ADDRESS = env_int("STREAMS_PER_ADDRESS", 24)
STREAMS_PER_USER = env_int("STREAMS_PER_USER", 12)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Email (password reset links): printed on the server's console unless an SMTP server is set.
EMAIL_HOST = env_str("EMAIL_HOST")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
# STARTTLS on the submission port, unless the server speaks TLS from the start (port 465).
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
# A request that sends mail must not hang on an unreachable server until the worker times out.
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Clash of Decks <noreply@localhost>")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French")), ("sv", _("Swedish"))]
LOCALE_PATHS = [BASE_DIR / "cod_site" / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env_str("DJANGO_MEDIA_ROOT") or BASE_DIR / "media")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "cod_site.storage.StaticStorage"},
}
# Serve files found by the finders too, so tests and a fresh checkout need no collectstatic.
WHITENOISE_USE_FINDERS = True

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "cod_site.api.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "cod_site.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "cod_site.api.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "cod_site.api.schema.AutoSchema",
    "EXCEPTION_HANDLER": "cod_site.api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["rest_framework.throttling.AnonRateThrottle"],
    # cod_site/api/throttles.py: `seat` per guest seat or spectate link; the others per account
    # on the expensive operations.
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_ANON_RATE", "600/minute"),
        "seat": env_str("API_SEAT_RATE", "600/minute"),
        "simulations": env_str("API_SIMULATIONS_RATE", "60/hour"),
        "curves": env_str("API_CURVES_RATE", "30/hour"),
        "suggestions": env_str("API_SUGGESTIONS_RATE", "30/hour"),
        "games": env_str("API_GAMES_RATE", "120/hour"),
        "pdfs": env_str("API_PDFS_RATE", "120/hour"),
        "grimoire_solve": GRIMOIRE_SOLVE_RATE,
    },
}

SPECTACULAR_SETTINGS = {
    "TITLE": "cod_site API",
    "DESCRIPTION": (
        "Cards, decks, Champions, Mutation sessions and simulated games of Clash of Decks."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": "/api/v1",
    # Choice sets that share a field name with another app's get their own schema name.
    "ENUM_NAME_OVERRIDES": {
        "ChampionVisibilityEnum": "champions.models.Visibility",
        "DeckVisibilityEnum": "decks.models.Visibility",
        # The Mutation sessions' keep the plain name they had before test batches had a status.
        "StatusEnum": "mutation.models.MutationSession.Status",
        "SimulationStatusEnum": "engine.models.Status",
        "SimulationAgentEnum": "engine.models.Agent",
        "SimulationDeckEnum": ["a", "b"],
        "GameStatusEnum": "play.models.Status",
        "GameAgentEnum": "play.models.Agent",
        "GameActionKindEnum": ["assault", "end_turn", "play", "play_onto", "cast"],
        "GameSeatRequestKindEnum": ["me", "invite", "agent"],
        "GameFormatEnum": "play.models.Format",
        # A table's modes and a test batch's are the engine's same five (play.models.Mode).
        "ModeEnum": "play.models.Mode",
        "SimulationFormatEnum": ["decks", "draft"],
        # A Duel of Chaos game's seats: who played first, who won.
        "ChaosSeatEnum": ["A", "B"],
    },
}

# Production hardening, switched on together by DJANGO_SECURE=1 (behind HTTPS).
SECURE = env_bool("DJANGO_SECURE", False)
SECURE_SSL_REDIRECT = SECURE
# A load balancer's health probe talks plain HTTP to the server behind it.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 31536000) if SECURE else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (cod_site.middleware.SecurityPolicyMiddleware): every script is a
# static file of the site, none is written in the markup. Styles may be inline
# ('unsafe-inline'): htmx adds its indicator <style>, Swagger UI and Redoc style their elements,
# the 500 page has a style attribute; a style runs no code, scripts are what the policy stops.
# Images: data: and blob: for SVG icons of the docs pages and previews of a chosen upload.
CONTENT_SECURITY_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data: blob:",
    "font-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
# Redoc renders in a Web Worker it makes from a blob: URL.
CONTENT_SECURITY_POLICY_PATHS = {"/api/v1/redoc/": {"worker-src": "'self' blob:"}}
# Features no page uses, turned off for the site and anything it might embed.
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "accelerometer": [],
    "camera": [],
    "geolocation": [],
    "gyroscope": [],
    "magnetometer": [],
    "microphone": [],
    "payment": [],
    "usb": [],
}
SESSION_COOKIE_HTTPONLY = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "WARNING")},
}
