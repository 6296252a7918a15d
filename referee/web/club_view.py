"""What club play's pages and printed lists share (RULES.md 5): what an event is called and its format in the
reader's words, who sits where in a round (sorted by name as the reader sorts names), and where a table's players
went once the next round is drawn."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext, ngettext, pgettext

from ..games.clock import RoundClock, duration, mm_ss, utc_text
from ..matches import clock as round_clock
from ..matches.events import Event, EventTable
from .i18n import sorted_names


def event_words(kind: str) -> dict[str, str]:
    """The words that follow what the event is (a club evening or a tournament): German says Spielabend or Turnier,
    Japanese 例会 or 大会, with their own grammar (each a whole sentence, not a word put into one)."""
    if kind == "tournament":
        return {"noun": gettext("tournament"), "the": gettext("The tournament"),
                "over": gettext("The tournament is over."), "delete": gettext("Delete this tournament"),
                "edit": gettext("Edit the tournament"),
                "last": gettext("This is the last round: the tournament ends once every table has ended and been "
                                "confirmed by all its players, or when you end it."),
                "end": gettext("End the tournament"), "end_now": gettext("Yes, end the tournament now"),
                "ask_end": gettext("End the tournament now? Tables still playing end as they stand; the standings "
                                   "and the prizes become final, and the tables' links only show their results. You "
                                   "can still correct a table afterwards."),
                "ask_delete": gettext("Delete this tournament? Its rounds, tables and links go with it; nothing was "
                                      "played at it.")}
    return {"noun": gettext("club evening"), "the": gettext("The evening"), "over": gettext("The evening is over."),
            "delete": gettext("Delete this evening"), "edit": gettext("Edit the evening"),
            "last": gettext("This is the last round: the evening ends once every table has ended and been "
                            "confirmed by all its players, or when you end it."),
            "end": gettext("End the evening"), "end_now": gettext("Yes, end the evening now"),
            "ask_end": gettext("End the evening now? Tables still playing end as they stand; the standings and the "
                               "prizes become final, and the tables' links only show their results. You can still "
                               "correct a table afterwards."),
            "ask_delete": gettext("Delete this evening? Its rounds, tables and links go with it; nothing was played "
                                  "at it.")}


def unconfirmed_mark(rounds: tuple[int, ...]) -> str:
    """The mark beside a player in the standings while tables of theirs have ended and wait for their players'
    confirmations (RULES.md 5.6): "* round 2 not confirmed", "* rounds 1, 3 not confirmed"."""
    return ngettext("* round %(rounds)s not confirmed", "* rounds %(rounds)s not confirmed", len(rounds),
                    rounds=gettext(", ").join(str(r) for r in rounds))


def unconfirmed_short(rounds: tuple[int, ...]) -> str:
    """The board's mark for the same (a room reads it from afar, beside a name kept on one line): "* R2", "* R1, R3",
    explained once under the board's standings."""
    return "* " + gettext(", ").join(gettext("R%(round)s", round=r) for r in rounds)


def season_words(events: Any, best: int | None = None) -> dict[str, Any]:
    """The words of a season's table for what its events are (RULES.md 5.8, issue 47): German says Spielabende when
    every event of it is a club evening, Turniere when every one is a tournament, Veranstaltungen when it has both;
    Japanese 例会, 大会 or イベント. ``short(n)`` heads the column of its n-th event. Whole sentences, not a word put
    into one."""
    kinds = {e.kind for e in events}
    count = len(events)
    if kinds == {"club_evening"}:
        return {"count": ngettext("%(num)s club evening", "%(num)s club evenings", count),
                "best": ngettext("The best %(num)s evening of each player counts",
                                 "The best %(num)s evenings of each player count", best or 0),
                "every": gettext("Every evening counts"),
                "by_first": gettext("points as each evening's standings rank by first"),
                "column": gettext("Evenings"),
                "bracket": gettext("(in brackets): an evening that does not count among a player's best"),
                "best_of_field": gettext("Best of (empty: every evening counts)"),
                "short": lambda n: pgettext("club evening", "E%(number)s", number=n)}
    if kinds == {"tournament"}:
        return {"count": ngettext("%(num)s tournament", "%(num)s tournaments", count),
                "best": ngettext("The best %(num)s tournament of each player counts",
                                 "The best %(num)s tournaments of each player count", best or 0),
                "every": gettext("Every tournament counts"),
                "by_first": gettext("points as each tournament's standings rank by first"),
                "column": gettext("Tournaments"),
                "bracket": gettext("(in brackets): a tournament that does not count among a player's best"),
                "best_of_field": gettext("Best of (empty: every tournament counts)"),
                "short": lambda n: gettext("T%(number)s", number=n)}
    return {"count": ngettext("%(num)s event", "%(num)s events", count),
            "best": ngettext("The best %(num)s event of each player counts",
                                 "The best %(num)s events of each player count", best or 0),
            "every": gettext("Every event counts"),
            "by_first": gettext("points as each event's standings rank by first"),
            "column": gettext("Events"),
            "bracket": gettext("(in brackets): an event that does not count among a player's best"),
            "best_of_field": gettext("Best of (empty: every event counts)"),
            "short": lambda n: gettext("E%(number)s", number=n)}


def event_format(event: Event) -> str:
    """"3 rounds of 4 deals, seated by the standings" (RULES.md 5.3–5.4), in the reader's language."""
    rounds = int(event.row.rounds)
    deals = event.row.options.get("deals")
    if isinstance(deals, int):
        length = ngettext("%(num)s round of %(deals)s deals", "%(num)s rounds of %(deals)s deals", rounds,
                          deals=deals)
    else:
        length = ngettext("%(num)s round, each one whole match", "%(num)s rounds, each one whole match", rounds)
    if rounds == 1:
        return length
    seating = gettext("seated by the standings") if event.row.seating == "standings" else \
        gettext("seated by a new draw each round")
    return gettext("%(length)s, %(seating)s", length=length, seating=seating)


def seating_list(event: Event, round_number: int | None = None) -> list[tuple[str, int | None, int | None]]:
    """Who sits where in a round (the latest by default): (player, table, seat), sorted by name as the reader sorts
    them; table and seat None for a player sitting out."""
    if not event.rounds:
        return []
    event_round = event.rounds[(round_number or len(event.rounds)) - 1]
    seats: list[tuple[str, int | None, int | None]] = [
        (p, t.number, k) for t in event_round.tables for k, p in enumerate(t.players, start=1)]
    seats += [(p, None, None) for p in event_round.byes]
    order = {name: i for i, name in enumerate(sorted_names([s[0] for s in seats]))}
    return sorted(seats, key=lambda s: order[s[0]])


def next_round_at(event: Event, table: EventTable) -> dict[str, Any] | None:
    """For a table's page once a later round is drawn: who sits at this table now (its match), and where each of
    this table's players went ("Ann → table 4, seat 1")."""
    latest = event.current
    if latest is None or latest.number <= table.round:
        return None
    here = next((t for t in latest.tables if t.number == table.number), None)
    moves = []
    for player in table.players:
        seat = event.seat_of(player, latest.number) if player in latest.seated else None
        moves.append({"player": player, "table": seat[0] if seat else None, "seat": seat[1] if seat else None,
                      "out": player in latest.byes, "left": player not in latest.seated})
    return {"round": latest.number, "table": here, "moves": moves}


SOON = 300  # seconds: the round clock's last five minutes are shown in amber


def clock_view(round_number: int, clock: RoundClock | None) -> dict[str, Any] | None:
    """What a round clock shows (``_round_clock.html``; static/app.js counts it down): the time left as "mm:ss" and as
    an HTML duration, when it ends (none while paused), whether it is paused and whether time is up (the last deal)."""
    if clock is None:
        return None
    left = clock.seconds_left(round_clock.now())
    ends = clock.ends_at()
    return {"round": round_number, "mm_ss": mm_ss(left), "duration": duration(left),
            "ends_at": utc_text(ends) if ends else "", "paused": clock.paused, "up": left == 0,
            "soon": 0 < left <= SOON,
            "minutes": clock.minutes, "added": clock.added}
