"""What the sheets' tests share: the count of PDF renders."""

from __future__ import annotations

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
