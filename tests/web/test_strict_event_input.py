"""An event's input read strictly (issue 34, point 5): ``round`` is ``match`` or ``deals:N`` exactly (ASCII digits,
no leading zero, nothing around it), a tariff's currency is money some country has (CLDR's data, through Babel: not
XXX, XTS, XAU, nor "EURO"), a date is a day of the calendar written 2026-12-03 — in the API's POST and PATCH and on
the form (422, the message beside the field, the input kept, nothing stored); the same rules on import
(tests/portable/test_club_play.py)."""

from __future__ import annotations

import pytest

from referee.games.money import BadTariff, currencies, parse_tariff
from tests.conftest import text
from tests.web.test_club_room import FOUR
from tests.web.test_events_pages import errors_of, event_form

LAX_ROUNDS = ("deals:2\n", "deals:\u0662", "deals:02", "deals: 2", " deals:2", "deals:2 ", "DEALS:2", "match\n")
LAX_TARIFFS = ("0.05 XXX", "0.05 EURO", "0.05 XTS", "1 XAU", "\u0660.\u0660\u0665 EUR", "0.05 EUR\n", "0,05 EUR")
LAX_DATES = ("2026-02-30", "tomorrow", "2026-12-03 ", "20261203", "2026-W49-4", "\uff12\uff10\uff12\uff16-12-03")


def body(**fields) -> dict:
    return {"name": "E", "game": "klaberjass", "players": FOUR, "round": "deals:2", **fields}


@pytest.mark.parametrize(("field", "value", "code"), [
    *(("round", lax, "bad_round") for lax in LAX_ROUNDS),
    *(("tariff", lax, "bad_tariff") for lax in LAX_TARIFFS),
    *(("date", lax, "bad_date") for lax in LAX_DATES),
])
def test_the_api_refuses_lax_input_naming_the_field(client, field, value, code):
    r = client.post("/api/events", json=body(**{field: value}))
    assert r.status_code == 422, r.json
    assert [(e["field"], e["code"]) for e in r.json["errors"]] == [(field, code)]
    assert client.get("/api/export").json["events"] == []  # nothing stored
    if field != "round":  # a round's length is set once, before the first draw
        made = client.post("/api/events", json=body()).json
        patched = client.patch(f"/api/events/{made['id']}", json={field: value})
        assert patched.status_code == 422 and patched.json["errors"][0]["field"] == field
        assert client.get(f"/api/events/{made['id']}").json[field] == made[field]


def test_the_strict_forms_still_take_what_people_write(client):
    made = client.post("/api/events", json=body(round="deals:12", tariff="0.5 jpy", date="2026-12-03")).json
    assert (made["round"], made["tariff"], made["date"]) == ("deals:12", "0.5 JPY", "2026-12-03")
    for tariff in ("0.05 EUR", "10 JPY", "0.10 CHF", "1 XOF", "0.05 HRK"):  # HRK: Croatia's money until 2023
        assert str(parse_tariff(tariff)) == tariff.replace("0.10", "0.10")
    with pytest.raises(BadTariff):
        parse_tariff("0.05 XXX")
    assert {"EUR", "USD", "JPY", "GBP", "CHF", "XAF", "XOF"} <= currencies()
    assert not {"XXX", "XTS", "XAU", "XAG", "XDR"} & currencies()


def test_the_form_says_it_beside_the_field_and_keeps_the_input(client):
    r = client.post("/events/new", data=event_form(tariff="0.05 XXX", date="2026-02-30"))
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    errors = errors_of(page)
    assert "tariff" in errors and "date" in errors
    assert 'value="0.05 XXX"' in page and 'value="2026-02-30"' in page  # kept as typed
    assert "0.05 EUR" in text(errors["tariff"])
    assert client.get("/api/export").json["events"] == []
