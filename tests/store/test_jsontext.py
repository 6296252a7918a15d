"""referee.jsontext: the stored JSON columns and the API's answers are written by orjson, and whatever orjson
refuses falls back to the standard library — the same value comes back from the text either way."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime

import pytest

from referee import jsontext
from referee.games.base import Line, Term


def test_compact_and_keeps_non_ascii():
    assert jsontext.dumps({"players": ["Zoë", "山田 太郎"], "n": 3}) == '{"players":["Zoë","山田 太郎"],"n":3}'


@pytest.mark.parametrize("value", [
    {"big": 2 ** 70},                     # beyond 64 bits: orjson refuses
    {"a": "\ud800"},                      # a lone surrogate (json.loads accepts "\\ud800")
    {1: "one", "two": 2},                 # a key that is not a string
    [1.5, -0.0, None, True, "x"],
])
def test_what_orjson_refuses_is_written_by_the_standard_library(value):
    text = jsontext.dumps(value)
    assert json.loads(text) == json.loads(json.dumps(value, ensure_ascii=False))


@pytest.mark.parametrize("value", [
    {"totals": {"Zoë": 162, "山田 太郎": -20}, "n": [1, 2.5, None, True]},
    {"a": "\ud800"},                      # a lone surrogate: orjson refuses the text, json reads it
])
def test_a_stored_column_reads_back_as_written(value):
    back = jsontext.parse(jsontext.dumps(value))
    assert json.dumps(back) == json.dumps(value)
    assert jsontext.parse(jsontext.dumps(value).encode("utf-8", "surrogatepass")) == back


def test_text_orjson_refuses_is_read_as_json_reads_it():
    assert json.dumps(jsontext.parse("[NaN, 1]")) == "[NaN, 1]"
    with pytest.raises(ValueError):
        jsontext.parse("{not json")


def test_lines_and_terms_are_their_text():
    line = Line("t.example", "{player} took {suit}", player="Ann", suit=Term("hearts"))
    assert jsontext.dumps({"line": line}) == '{"line":"Ann took hearts"}'


def test_sort_keys_and_default():
    assert jsontext.dumps({"b": 1, "a": 2}, sort_keys=True) == '{"a":2,"b":1}'
    assert jsontext.dumps({"d": date(2026, 12, 1)}, default=str) == '{"d":"2026-12-01"}'

    @dataclass
    class Point:
        x: int

    with pytest.raises(TypeError):  # as json.dumps: a value it cannot write is an error, not a guess
        jsontext.dumps(Point(1))


def test_the_api_answers_as_flask_would(app):
    with app.app_context():
        when = datetime(2026, 12, 1, 6, 30)
        # dates as Flask writes them (an HTTP date), keys in the order the code wrote them
        assert json.loads(app.json.dumps({"z": 1, "when": when})) == {"z": 1, "when": "Tue, 01 Dec 2026 06:30:00 GMT"}
        assert app.json.dumps({"z": 1, "a": 2}).index('"z"') < app.json.dumps({"z": 1, "a": 2}).index('"a"')
        assert json.loads(app.json.dumps({"big": 2 ** 70})) == {"big": 2 ** 70}
        # a lone surrogate someone sent comes back escaped, so the answer can be encoded as UTF-8
        text = app.json.dumps({"field": "\ud800"})
        assert "\\ud800" in text and json.loads(text) == {"field": "\ud800"}
        text.encode()
    client = app.test_client()
    answer = client.post("/api/matches", json={"game": "klaberjass", "players": ["Zoë", "山田 太郎"]})
    assert answer.status_code == 201
    assert "山田 太郎".encode() in answer.data  # UTF-8 as is, not \\u escapes
    assert answer.json["players"] == ["Zoë", "山田 太郎"]
