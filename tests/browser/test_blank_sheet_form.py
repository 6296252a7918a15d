"""A blank score sheet with the players' names, from the form on the rules index: a phone (390×844) without
JavaScript, names typed into one field a seat (a comma inside a name included), one tap to the PDF."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser


def test_the_names_typed_into_the_form_are_printed_on_the_blank_sheet(phone_without_js):
    """Issue 21: the only way to names on a blank sheet was ?players= in the address bar. In English, then German."""
    page = phone_without_js
    for lang, summary, button in (("en", "Spitzer sheet with the players' names", "Print blank sheet (PDF)"),
                                  ("de", "Spitzer: Spielzettel mit Namen", "Leeren Spielzettel drucken (PDF)")):
        page.goto(f"{page.base}/rules?lang={lang}")
        page.get_by_text(summary).click()  # <details>: opens without JavaScript
        names = ["Smith, Ann", "Bartholomäus", "Cid", "山田"]
        fields = page.locator("details[open] input[name=players]")
        assert fields.count() == 4, lang
        for i, name in enumerate(names):
            fields.nth(i).fill(name)
            found = fields.nth(i).bounding_box()
            assert found["height"] >= 44 and found["x"] >= 0 and found["x"] + found["width"] <= 390, (lang, found)
        submit = page.get_by_role("button", name=button)
        assert submit.bounding_box()["height"] >= 44, lang
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, lang  # no sideways scrolling
        screenshot(page, f"blank-sheet-form-{lang}")
        with page.expect_response(lambda r: "/sheets/spitzer.pdf" in r.url) as answer:
            submit.click()
        assert answer.value.status == 200 and answer.value.headers["content-type"] == "application/pdf", lang
        pdf = page.request.get(answer.value.url)  # the same address again (the viewer keeps the body to itself)
        grid = PdfReader(io.BytesIO(pdf.body())).pages[0].extract_text()
        headings = " ".join(grid.replace("\u2010\n", "").split())  # a long name breaks at a syllable, with a hyphen
        assert " Smith, Ann Bartholomäus Cid 山田 + Σ + Σ" in headings, (lang, headings)  # each name whole, in its seat
