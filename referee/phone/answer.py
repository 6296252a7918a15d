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
import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import jinja2
from markupsafe import escape

from ..games.base import Table, Tally
from ..web.games import PageOp, find_plug
from ..web.games.form import not_yet_entered, pressed
from . import i18n

# The pieces of the page's head (templates/_entry_head.html) that change for the deal after the waiting ones.
HEADING = re.compile(r"(<h1>)(.*?)(\s*<small>)", re.S)
STANDING = re.compile(r'<p class="entry-standing".*?</p>', re.S)
DEALS = re.compile(r'^(<p class="entry-standing"[^>]*><span class="nowrap">)(.*?)(</span>)', re.S)
TOTALS = re.compile(r'data-totals="[^"]*"')
TOTAL = re.compile(r"<b>[^<]*</b>")
LIVE = re.compile(r'data-live="[^"]*"')
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

    def _speak(self, seed: Mapping[str, Any]) -> None:
        """The page's language, for the templates and ``i18n``."""
        language = seed["language"]
        catalog = self.catalog(language)
        i18n.use(language, catalog, seed["numbers"], seed["lists"])
        self.env.install_gettext_callables(  # type: ignore[attr-defined]  # jinja2.ext.i18n adds it
            catalog.gettext, catalog.ngettext, newstyle=True, pgettext=catalog.pgettext, npgettext=catalog.npgettext)

    def answer(self, seed: Mapping[str, Any], fields: list[tuple[str, str]], head: str) -> str | None:
        """The entry form after this tap (``fields``: the form's fields as the browser posts them, the pressed
        button as ``op``), as HTML; None when the server must answer."""
        self._speak(seed)
        posted = _posted(fields)
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

    def following(self, seed: Mapping[str, Any], fields: list[tuple[str, str]], head: str,
                  waiting: list[list[tuple[str, str]]]) -> dict[str, Any] | None:
        """Where the match stands after the deals this phone keeps waiting to send (``waiting``: each one's fields as
        saved, in order, the first for the deal of ``seed``'s form), worked out by the rules as the server will when
        they arrive: each scored, the tally advanced and the match judged, the deal passed on (RULES.md: who deals
        next is the game's ``next_dealer``). The answer: each player's total and what they still need (the table's
        "needs N"), whether the match ends with them (then no form: the server would refuse one), and else the blank
        form for the deal after them (``fields``: its idempotency key and token) with its head saying which deal
        and who deals. None when the seed cannot tell (a form kept before it carried the tally); ``unscored``: a
        waiting deal the rules do not score (it is sent, and Referee says what is wrong with it)."""
        target, kept = seed.get("target"), seed.get("tally")
        if not target or kept is None:
            return None
        self._speak(seed)
        plug = find_plug(seed["game"])
        game, players = plug.game, tuple(seed["players"])
        options = game.parse_options(seed["options"])
        number, dealer = int(target["number"]), str(target["dealer"])
        if dealer not in players:
            return None
        tally, standing = Tally.from_json(kept), None
        for saved in waiting:
            table = Table(players, dealer)
            result = plug.entry.read(plug.entry.from_form(players, _posted(saved)), table, options).result
            if result is None:
                return {"unscored": number}
            tally = game.advance(players, tally, result, options)
            standing = game.judge(players, tally, options)
            number, dealer = number + 1, game.next_dealer(table)
            if standing.finished:
                break
        needs = game.needs(players, tally.totals, options)
        at = game.target(options)
        finished = bool(standing and standing.finished)
        answer: dict[str, Any] = {
            "number": number, "dealer": dealer, "totals": dict(tally.totals), "finished": finished,
            "note": i18n.say(standing.note) if standing and standing.note else "",
            "to_go": None if needs is None else {
                p: i18n.gettext("reached %(target)s", target=at) if needs[p] == 0
                else i18n.gettext("needs %(points)s", points=needs[p]) for p in players},
            "html": None,
        }
        if finished:  # no next deal: no turn line, no roles (the table shows none for a finished match)
            answer.update(turn="", standing_line="", enter="", tags={p: [] for p in players}, ends=(
                i18n.gettext("The match ends once the waiting hands are sent.") if game.deal_noun == "hand" else
                i18n.gettext("The match ends once the waiting deals are sent.")))
            return answer
        answer.update(self._turn(plug, players, number, dealer, needs, standing))
        after = {"number": number, "dealer": dealer, "version": target["version"], "moved_from": None}
        answer["html"] = self.answer({**seed, "target": after, "tally": tally.to_json()}, fields,
                                     self._head(head, game.deal_noun, number, dealer, players, tally.totals))
        return answer

    def _turn(self, plug: Any, players: tuple[str, ...], number: int, dealer: str, needs: dict[str, int] | None,
              standing: Any) -> dict[str, Any]:
        """What the table says of the deal after the waiting ones (templates/_match_live.html, _scoreboard.html):
        whose deal it is (the game's turn line, as HTML), the standing's line where the table shows it, the button's
        words and each player's role tags."""
        game, table = plug.game, Table(players, dealer)
        roles = game.roles(table)
        context = {"match": SimpleNamespace(next_number=number),
                   "state": SimpleNamespace(roles=SimpleNamespace(**roles))}
        words = {"dealer": i18n.gettext("deals"), "elder": i18n.gettext("elder"), "leader": i18n.gettext("leads")}
        shown = standing is not None and standing.note and (needs is None or 0 in needs.values())
        return {
            "turn": self.env.get_template(plug.turn_template).render(context).strip(),
            "standing_line": i18n.say(standing.note) if shown else "",
            "enter": i18n.gettext("Enter %(noun)s %(number)s", noun=i18n.gettext(game.deal_noun),
                                  number=i18n.number(number)),
            "tags": {p: [words.get(role, role) for role, who in roles.items() if who == p] for p in players},
        }

    def following_json(self, request: str) -> str | None:
        """``following`` for the worker: ``request`` is JSON ``{"seed", "fields", "head", "waiting"}``; JSON back."""
        asked = json.loads(request)
        answer = self.following(asked["seed"], [(k, v) for k, v in asked["fields"]], asked["head"],
                                [[(k, v) for k, v in saved] for saved in asked["waiting"]])
        return None if answer is None else json.dumps(answer, ensure_ascii=False)

    @staticmethod
    def _head(head: str, noun: str, number: int, dealer: str, players: tuple[str, ...],
              totals: Mapping[str, int]) -> str:
        """The page's head (templates/_entry_head.html) for the deal after the waiting ones: its number and dealer,
        and the totals with the waiting deals, marked as the table marks them; the live follow asks for that deal."""
        shown = i18n.number(number)
        heading = (i18n.gettext("Hand %(number)s", number=shown) if noun == "hand" else
                   i18n.gettext("Deal %(number)s", number=shown))
        head = HEADING.sub(lambda m: m[1] + str(escape(heading)) + m[3], head, count=1)
        mark = i18n.gettext("with the deals waiting to send")
        marked = iter(f'<b>{escape(i18n.number(int(totals.get(p, 0))))}</b> <span class="waiting-mark" '
                      f'title="{escape(mark)}" aria-label="{escape(mark)}">⏳</span>' for p in players)

        def standing(m: re.Match[str]) -> str:
            text = DEALS.sub(lambda d: d[1] + str(escape(i18n.gettext("%(dealer)s deals", dealer=dealer))) + d[3],
                             m[0], count=1)
            text = TOTALS.sub(f'data-totals="{" ".join(str(int(totals.get(p, 0))) for p in players)}"', text, count=1)
            return TOTAL.sub(lambda _: next(marked, ""), text)

        head = STANDING.sub(standing, head, count=1)
        seat = players.index(dealer)
        return LIVE.sub(lambda m: re.sub(r"dealer=\d+", f"dealer={seat}", re.sub(r"number=\d+", f"number={number}",
                                                                                m[0])), head, count=1)


def _posted(fields: list[tuple[str, str]]) -> dict[str, str]:
    """The form's fields as the server reads them (the first value of each name)."""
    posted: dict[str, str] = {}
    for key, value in fields:
        posted.setdefault(key, value)
    return posted
