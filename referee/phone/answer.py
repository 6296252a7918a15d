"""One tap of the entry form, answered on the phone (static/rules-worker.js calls ``answer``): the same steps as the
server's entry view (``referee.web.pages.entry._entry`` for a tap that saves nothing) and the same template, so the
form the phone shows is the form the server would have sent. Save, "discard" and "enter it as the next deal" are the
server's (``None``: ask it), as is an entry with more problems than a form lists (the server caps them).

``seed`` is what the server put on the form (``data-rules-seed``, ``seed`` in ``referee.web.phone_files``): the
match as the form was opened (game, players, options, the deal it is for), the page's language and how it writes
numbers and lists. The form's head (which deal, who deals, the totals, what another phone did) is the page's own,
followed by static/live.js: the phone passes it through as it is (``head``).
"""

from __future__ import annotations

import gettext
import io
import json
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import jinja2

from ..games.base import Table
from ..web.games import PageOp, find_plug
from ..web.games.form import not_yet_entered, pressed
from . import i18n

MAX_ERRORS = 100  # referee.web.common.MAX_ERRORS: an entry with more problems is the server's to answer
HEAD = "_entry_head.html"


@dataclass(frozen=True)
class Target:
    """The deal a new deal's form is for (``NewDealFor`` of the server, as its hidden fields say)."""

    number: int
    dealer: str
    version: int
    moved_from: int | None = None


class Rules:
    """The templates and catalogues of the bundle, read once; ``answer`` for each tap."""

    def __init__(self, bundle: str | bytes) -> None:
        with zipfile.ZipFile(bundle if isinstance(bundle, str) else io.BytesIO(bundle)) as zipped:
            names = zipped.namelist()
            templates = {n.removeprefix("templates/"): zipped.read(n).decode() for n in names
                         if n.startswith("templates/")}
            self._mo = {n.split("/")[1]: zipped.read(n) for n in names
                        if n.startswith("translations/") and n.endswith(".mo")}
        templates[HEAD] = "{{ entry_head_html|safe }}"  # the page's own head, passed through
        self.env = jinja2.Environment(loader=jinja2.DictLoader(templates), autoescape=True,
                                      extensions=["jinja2.ext.i18n"])
        self.env.policies["json.dumps_kwargs"] = {  # as the app's tojson
            "sort_keys": True, "separators": (",", ":"), "ensure_ascii": False}
        self.env.filters.update(say=i18n.say, number=i18n.number)
        self.env.globals.update(say=i18n.say)
        self._catalogs: dict[str, gettext.NullTranslations] = {}

    def catalog(self, language: str) -> gettext.NullTranslations:
        if language not in self._catalogs:
            mo = self._mo.get(language)
            self._catalogs[language] = gettext.GNUTranslations(io.BytesIO(mo)) if mo else gettext.NullTranslations()
        return self._catalogs[language]

    def answer(self, seed: Mapping[str, Any], fields: list[tuple[str, str]], head: str) -> str | None:
        """The entry form after this tap (``fields``: the form's fields as the browser posts them, the pressed
        button as ``op``), as HTML; None when the server must answer."""
        language = seed["language"]
        catalog = self.catalog(language)
        i18n.use(language, catalog, seed["numbers"], seed["lists"])
        self.env.install_gettext_callables(  # type: ignore[attr-defined]  # jinja2.ext.i18n adds it
            catalog.gettext, catalog.ngettext, newstyle=True, pgettext=catalog.pgettext, npgettext=catalog.npgettext)
        posted: dict[str, str] = {}
        for key, value in fields:
            posted.setdefault(key, value)
        plug = find_plug(seed["game"])
        players = tuple(seed["players"])
        op = pressed(posted.get("op", ""), plug.entry)
        if isinstance(op, PageOp) and op is not PageOp.REFRESH:
            return None
        options = plug.game.parse_options(seed["options"])
        entry = plug.entry.from_form(players, posted)
        if op is not None and not isinstance(op, PageOp):
            op.press(entry, len(players))
        deal, target = seed.get("deal"), seed.get("target")
        dealer = str((deal or target or {}).get("dealer"))
        if dealer not in players:
            return None
        table = Table(players, dealer)
        reading = plug.entry.read(entry, table, options)
        problems = list(reading.problems)
        if len(problems) > MAX_ERRORS:
            return None
        waiting = [p for p in problems if not_yet_entered(p)]
        errors = [p for p in problems if p not in waiting]
        grouped: dict[str | None, list[str]] = {}
        for v in errors:  # beside its field, in the page's language (the server's ``_group``)
            grouped.setdefault(v.field, []).append(i18n.say(v))
        version = posted.get("version", "")
        context = {
            "match": SimpleNamespace(id=seed["match"], game=plug.game, players=players, options=options),
            "deal": deal,
            "table": table,
            "roles": plug.game.roles(table),
            "errors": grouped,
            "error_list": errors,
            "waiting": waiting,
            "form_action": seed["action"],
            "idempotency_key": posted.get("idempotency_key", ""),
            "version": int(version) if version.isdigit() else (deal["version"] if deal else None),
            "stale": None,
            "entry": entry,
            "result": reading.result,
            "target": Target(**target) if target else None,
            "refused": seed.get("refused") or None,
            "page_op": PageOp,
            "csrf_token": lambda: posted.get("csrf_token", ""),
            "entry_head_html": head,
            "rules_seed": seed,
            **plug.entry.view(entry, reading, table, options),
        }
        return self.env.get_template(plug.entry_template).render(context)

    def answer_json(self, request: str) -> str | None:
        """``answer`` for the worker: ``request`` is JSON ``{"seed", "fields", "head"}``."""
        asked = json.loads(request)
        return self.answer(asked["seed"], [(k, v) for k, v in asked["fields"]], asked["head"])
