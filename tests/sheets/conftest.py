"""What the sheets' tests share: the count of PDF renders, real or stood in for."""

from __future__ import annotations

import hashlib

import pytest

from referee import sheets


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """Every PDF render (WeasyPrint, in its child process), counted (the HTML it was given)."""
    calls: list[str] = []
    real = sheets.render_pdf

    def counted(html, *args, **kwargs):
        calls.append(html)
        return real(html, *args, **kwargs)

    monkeypatch.setattr(sheets, "render_pdf", counted)
    return calls


@pytest.fixture
def counted_renders(monkeypatch) -> list[str]:
    """Every PDF render asked for, counted (the HTML it was given) and answered with a stand-in of a few bytes, one
    for each HTML: for the tests of what is kept and when a sheet is rendered again, which read no PDF (WeasyPrint
    takes 0.1–0.6 s a sheet; the sheets themselves are read back in test_sheets.py and the tests that use
    ``renders``)."""
    calls: list[str] = []

    def counted(html, *args, **kwargs) -> bytes:
        calls.append(html)
        return b"%PDF-1.7\n% stand-in " + hashlib.sha256(html.encode()).hexdigest().encode() + b"\n%%EOF\n"

    monkeypatch.setattr(sheets, "render_pdf", counted)
    return calls
