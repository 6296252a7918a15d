"""Players' names (issue 11): names that look the same are refused, a name needs a visible character, joiners are
accepted where a script needs them and refused out of place, names are stored NFC and print in any script."""

from __future__ import annotations

import pytest

# ---- names --------------------------------------------------------------------------------

def _start(client, players, game="klaberjass"):
    return client.post("/api/matches", json={"game": game, "players": players})


@pytest.mark.parametrize("first, second", [
    pytest.param("Zo\u00eb", "Zoe\u0308", id="Zoë composed and decomposed"),
    pytest.param("Ann", "\u0410nn", id="Latin and Cyrillic A"),
    pytest.param("Ann", "\uff21nn", id="fullwidth A"),
    pytest.param("Ann", "ANN", id="case"),
    pytest.param("Popov", "Рорov", id="Cyrillic Р and о"),
    pytest.param("Nikos", "Νικοs", id="Greek capital Nu, iota, kappa, omicron"),
    pytest.param("ﬁlip", "filip", id="ligature fi"),
])
def test_names_that_look_the_same_are_refused(client, first, second):
    r = _start(client, [first, second])
    assert r.status_code == 422
    errors = [e for e in r.json["errors"] if e["code"] == "duplicate_name"]
    assert len(errors) == 1 and errors[0]["field"] == "players.1"


@pytest.mark.parametrize("name", [
    pytest.param("\u200b", id="zero width space"),
    pytest.param("\u3164", id="Hangul filler"),
    pytest.param("\u2800\u2800", id="blank Braille"),
    pytest.param("\u115f\u1160", id="Hangul choseong and jungseong fillers"),
    pytest.param("\u200d", id="a lone ZWJ"),
    pytest.param("\u0301", id="a lone combining accent"),
])
def test_a_name_with_no_visible_character_is_refused(client, name):
    r = _start(client, ["Ann", name])
    assert r.status_code == 422
    assert [e["code"] for e in r.json["errors"]] == ["empty_name"] and "no visible character" in r.json["errors"][0][
        "message"
    ]


@pytest.mark.parametrize("name", [
    pytest.param("👩\u200d💻", id="emoji ZWJ sequence"),
    pytest.param("می\u200cخواهم", id="Persian with ZWNJ"),
    pytest.param("👍🏽", id="skin tone"),
    pytest.param("🇭🇷 Ivo", id="flag"),
    pytest.param("क्\u200dष", id="Devanagari with ZWJ"),
])
def test_names_that_need_joiners_are_accepted(client, name):
    r = _start(client, ["Ann", name])
    assert r.status_code == 201, r.json
    assert r.json["players"] == ["Ann", name]


@pytest.mark.parametrize("name", ["A\u200d\u200dB", "\u200dAnn", "Ann\u200c", "A\u202eB"])
def test_joiners_out_of_place_and_other_format_characters_are_refused(client, name):
    r = _start(client, ["Ben", name])
    assert r.status_code == 422 and r.json["errors"][0]["code"] == "bad_name"


def test_names_are_stored_nfc(client):
    r = _start(client, ["Zoe\u0308", "Ben"])
    assert r.status_code == 201 and r.json["players"][0] == "Zo\u00eb"
    assert client.get("/players/Zo\u00eb").status_code == 200


def test_sheets_print_names_in_any_script(client):
    import io

    from pypdf import PdfReader

    match_id = _start(client, ["Zoe\u0308", "می\u200cخواهم"]).json["id"]
    assert (
        client.post(
            f"/api/matches/{match_id}/deals", json={"upcard": "clubs", "calls": ["pass", "pass", "pass", "pass"]}
        ).status_code
        == 201
    )
    html = client.get(f"/matches/{match_id}/sheet").get_data(as_text=True)
    assert "Zo\u00eb" in html and "می\u200cخواهم" in html
    r = client.get(f"/matches/{match_id}/sheet.pdf")
    assert r.status_code == 200
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(r.data)).pages)
    assert "Zoë" in text and "خواهم" in text  # (text extraction drops the ZWNJ; the sheet has it, see the HTML)
    blank = client.get("/sheets/klaberjass?players=" + "👩\u200d💻,می\u200cخواهم")
    assert blank.status_code == 200 and "👩\u200d💻" in blank.get_data(as_text=True)
