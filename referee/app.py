"""The Flask application factory: configuration, the database check on start, and the web layer."""

from __future__ import annotations

import logging
import secrets
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, current_app, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import gettext
from htmx_flask import Htmx
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter

from . import config, jsontext, store
from .assets import asset_folder
from .commands import register_commands
from .matches import ENTERING_AT_ONCE, backfill_summaries, entering_at_once, spaces
from .web import i18n, register


class _JSONProvider(DefaultJSONProvider):
    """The API's answers, written by orjson (``referee.jsontext``) in the order the code wrote them; an indented
    answer (Flask's debug mode) by the standard library, as Flask writes it."""

    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs.get("indent") is None and kwargs.get("cls") is None:
            try:
                return jsontext.fast(obj, default=kwargs.get("default", self.default),
                                     sort_keys=kwargs.get("sort_keys", self.sort_keys))
            except TypeError:  # what orjson refuses, e.g. a lone surrogate someone sent: escaped (\ud800) as Flask does
                pass
        return super().dumps(obj, **kwargs)


def _secret_key(instance: Path) -> str:
    """A key generated once into instance/secret_key (when REFEREE_SECRET_KEY is not set)."""
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


class _NoPasswords(logging.Filter):
    """Every line Referee logs, traceback included, without a database password (``store.redact``): psycopg's and
    libpq's messages may quote the URL's parts."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:
            return True
        hidden = store.redact(message)
        if hidden != message:
            record.msg, record.args = hidden, None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = store.redact(record.exc_text)
        return True


def _log_to_stderr() -> None:
    """Referee's own log lines (every change to a match, unexpected errors) go to stderr."""
    log = logging.getLogger("referee")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        handler.addFilter(_NoPasswords())
        log.addHandler(handler)
        if log.level == logging.NOTSET:
            log.setLevel(logging.INFO)
        log.propagate = False  # waitress configures the root logger too: one line, not two


def _open_database(app: Flask, instance: Path) -> None:
    """Check the file, then create and migrate the database on start: no separate init step. A full disk, a
    read-only file system or missing permissions met on the way stop the start with one paragraph saying which."""
    path = app.config["DATABASE"]
    store.check_health(path)
    try:
        if not app.config.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = _secret_key(instance)
        db = store.connect(path)
        try:
            backfill_summaries(db)
            held, made = _spaces_at_start(app, db)
        finally:
            db.close()
    except Exception as exc:
        problem = store.start_problem(path, exc)
        if problem is None:
            raise
        raise problem from None
    if held > 1:
        raise store.CannotStart(
            f"Referee did not start: this database holds {held} spaces, and REFEREE_SPACES is off (one Referee, one "
            "club); start it with REFEREE_SPACES=invite or open (with them on, flask --app referee spaces export SLUG "
            "FILE writes a space's archive, which an off Referee imports).")
    if made is not None:
        _said_once(app, made)


def _spaces_at_start(app: Flask, db: store.Store) -> tuple[int, spaces.NewSpace | None]:
    """Spaces off: how many spaces the database holds (more than one, and Referee does not start). Spaces on: the
    first start of a database of one Referee makes it space 1 (``spaces.first_start``): its director link and key,
    made now (None: made at an earlier start)."""
    if (app.config.get("SPACES") or "off") == "off":
        return db.space_count(), None
    return 1, spaces.first_start(db, str(app.config.get("SPACE_NAME") or spaces.DEFAULT_NAME))


def _said_once(app: Flask, made: spaces.NewSpace) -> None:
    """Space 1's secrets, on the console at the start that made them (Referee keeps only their hashes)."""
    base = str(app.config.get("PUBLIC_URL") or "http://127.0.0.1:5000").rstrip("/")
    home = f"{base}/s/{made.slug}/"
    log = logging.getLogger("referee")
    log.warning("Spaces are on: this Referee's matches, events and seasons are the space %r, %s", made.name, home)
    log.warning("Its director link (shown this once; keep it): %sd/%s", home, made.director_token)
    log.warning("Its API key (shown this once; keep it): %s", made.key)


class NumberAsked(int):
    """A number in a URL past what the database holds (an id, a round, a table, a deal): nothing has it (it compares
    and is stored as 0, so the service answers 404 as for any unknown one), and it reads as the number asked
    (shortened past 40 digits) — "There is no match 99999999999999999999", never "no match 0" (issue 47)."""

    digits: str

    def __new__(cls, digits: str) -> NumberAsked:
        asked = super().__new__(cls, 0)
        asked.digits = digits if len(digits) <= 40 else f"{digits[:20]}…{digits[-6:]}"
        return asked

    def __str__(self) -> str:
        return self.digits

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return format(self.digits, spec)


class _SqliteInt(IntegerConverter):
    """A number in a URL (``<int:…>``, and ``<round:…>`` where a round's number is meant): any number of digits. Up to
    18 digits it is read (every such number fits the database's 64-bit integers); a longer one is no id anything has —
    ``NumberAsked``: simply not found (404, naming the number asked), never an overflow, never read whole (Python
    refuses to read an integer of more than 4,300 digits), and never a 405 from a sibling route (werkzeug checks
    methods before converters)."""

    def to_python(self, value: str) -> int:
        digits = value.lstrip("0") or "0"
        return int(digits) if len(digits) <= 18 else NumberAsked(digits)


def sqlite_path(database: str) -> str:
    """REFEREE_DATABASE as the store takes it: a path, or ``sqlite:`` and a path (``sqlite:///srv/referee.sqlite``,
    ``sqlite:instance/referee.sqlite``) — the embedded default —, or a PostgreSQL URL, kept as it is."""
    if database.startswith("sqlite://"):
        return database.removeprefix("sqlite://") or ":memory:"
    if database.startswith("sqlite:"):
        return database.removeprefix("sqlite:")
    return database


def create_app(test_config: Mapping[str, Any] | None = None, *, settings: config.Settings | None = None) -> Flask:
    """The application factory: the ``REFEREE_*`` settings (``settings``, else read from the environment now) as the
    app's configuration, ``test_config`` over them (DATABASE, SECRET_KEY, ...). A setting that cannot be used stops
    the start (``store.CannotStart``, one line saying which)."""
    if settings is None:
        try:
            settings = config.environment()
        except config.SettingError as exc:
            raise store.CannotStart(str(exc)) from None
    app = Flask(
        __name__,
        template_folder=asset_folder("templates"),
        static_folder=asset_folder("static"),
        instance_relative_config=True,
    )
    app.url_map.converters["int"] = _SqliteInt
    app.url_map.converters["round"] = _SqliteInt  # a round's number: the same rule, said where it is meant
    instance = Path(app.instance_path)
    app.config.from_mapping(MAX_CONTENT_LENGTH=256 * 1024, CSRF=True, **settings.app_config())
    app.config["DATABASE"] = sqlite_path(settings.database or str(instance / "referee.sqlite"))
    if settings.max_deals is None:
        app.config["MAX_DEALS"] = store.DEFAULT_MAX_DEALS
    if settings.entering_at_once is None:
        app.config["ENTERING_AT_ONCE"] = ENTERING_AT_ONCE
    if test_config:
        app.config.update(test_config)
    if not app.config.get("MAX_EVENTS"):  # the actions one match keeps: ten a deal, whatever MAX_DEALS is
        app.config["MAX_EVENTS"] = store.EVENTS_PER_DEAL * int(app.config["MAX_DEALS"])
    try:
        config.check_held(app.config)
    except config.SettingError as exc:
        raise store.CannotStart(str(exc)) from None
    entering_at_once(int(app.config["ENTERING_AT_ONCE"]))
    n = int(app.config["PROXIES"])
    if n > 0 and not app.config.get("SERVER_READS_PROXY_HEADERS"):
        # Behind N reverse proxies under another WSGI server (flask run, gunicorn): Werkzeug reads N X-Forwarded-*
        # headers from any peer. `referee` has waitress read them instead, from the proxy's address only
        # (referee.cli), and not ProxyFix as well: one place decides what is trusted.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n, x_host=n, x_port=n)  # type: ignore[method-assign]
    app.json = _JSONProvider(app)
    _log_to_stderr()
    for problem in settings.problems:
        logging.getLogger("referee").warning("%s", problem)
    _open_database(app, instance)

    Htmx(app)
    i18n.init_app(app)  # languages: before the web layer, so its answers are marked last (Vary, Content-Language)
    register(app)
    # in place of the web layer's answer to them, which reads the database
    for error in store.outage_errors(app.config["DATABASE"]):
        app.register_error_handler(error, _database_unreachable)
    register_commands(app)
    return app


# ---- the database cannot be reached ---------------------------------------------------------------------------------

RETRY_AFTER = 5  # seconds: a restarted PostgreSQL answers within a few; the page asks again after that long


class _Outage:
    """One log line for an outage every ``EVERY`` seconds, not one a request (twenty phones poll every 1.5 s)."""

    EVERY = 10.0

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._last = float("-inf")
        self._answered = 0

    def answered(self, exc: Exception) -> None:
        with self._guard:
            self._answered += 1
            now = time.monotonic()
            if now - self._last < self.EVERY:
                return
            self._last, count, self._answered = now, self._answered, 0
        said = str(exc).strip().splitlines()
        current_app.logger.error("database_unavailable on %s %s: the database cannot be reached (%d more request(s) "
                                 "answered 503 since the last such line): %s", request.method, request.path, count - 1,
                                 said[0] if said else type(exc).__name__)


_outage = _Outage()


def _database_unreachable(exc: Exception) -> Any:
    """While the database cannot be reached (``store.unreachable``: stopped, restarting, out of reach), every page and
    API answer is a 503 with Retry-After — a short page (templates/unavailable.html), or the API's error list —
    rendered without the database: base.html's header asks it who is signed in. Nothing of the request was stored (its
    transaction was rolled back, or never begun); a phone's outbox sends its entries again on a 5xx (static/entry.js).
    A database that answers with an error of its own (a full disk) gets the web layer's answer."""
    from .web.common import database_unavailable, wants_json

    if not store.unreachable(exc):
        return database_unavailable(exc)
    _outage.answered(exc)
    message = gettext("The database cannot be reached; Referee will answer again as soon as it is back.")
    kept = gettext("Nothing was stored by this request, and nothing stored before is lost.")
    if wants_json():
        error = {"field": None, "code": "database_unavailable", "message": f"{message} {kept}"}
        response = jsonify({"errors": [error]})
    else:
        again = request.method in ("GET", "HEAD") and request.headers.get("HX-Request") != "true"
        response = current_app.make_response(render_template(
            "unavailable.html", title=gettext("Try again in a moment"), message=message, kept=kept,
            reload_after=RETRY_AFTER if again else None))
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER)
    response.headers["Cache-Control"] = "no-store"
    return response
