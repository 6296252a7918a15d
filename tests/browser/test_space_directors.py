"""A space's page for its directors on a phone (issue 48): a co-director's link shown once, copied by its button as a
thumb taps it, and a link revoked only after the page asked (the rest is tests/web/test_space_directors.py's)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect


@pytest.fixture
def live_config() -> dict:
    return {"SPACES": "open", "OPERATOR_KEY": "operator-key"}


def thumb(page, selector: str) -> None:
    """A tap where the element is, as a thumb does: scrolled into view, its box read once, a moment's wait, then the
    tap at that point."""
    page.locator(selector).scroll_into_view_if_needed()
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    page.wait_for_timeout(100)
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_co_director_link_is_copied_by_its_button_and_revoked_after_asking(phone_context, phone):
    phone_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=phone.base)
    made = phone.request.post(f"{phone.base}/api/spaces", data={"name": "Skatclub Nord"},
                              headers={"Authorization": "Bearer operator-key"}).json()
    phone.goto(made["director_link"])
    thumb(phone, "#space-settings")
    phone.wait_for_url(f"**/s/{made['slug']}/space")
    thumb(phone, "#make-link")
    field = phone.locator("#new-link-url")
    field.wait_for()
    link = field.input_value()
    assert link.startswith(f"{phone.base}/s/{made['slug']}/d/")
    copy = phone.locator("[data-copy=new-link-url]")
    assert copy.is_visible()  # shown by its script (hidden without one: the field is there to select)
    thumb(phone, "[data-copy=new-link-url]")
    expect(copy).to_have_text("Copied")
    assert phone.evaluate("navigator.clipboard.readText()") == link
    rows = phone.locator(".director-link")
    assert rows.count() == 2
    new_row = rows.filter(has_not=phone.locator("b"))  # not this browser's
    ref = new_row.locator("code").inner_text()
    confirm = phone.locator(f"#link-{ref} form button")
    assert not confirm.is_visible()  # asked first: the revoke is behind its question
    thumb(phone, f"#link-{ref} summary")
    confirm.wait_for(state="visible")
    assert "signed out at once" in phone.locator(f"#link-{ref} details p").inner_text()
    thumb(phone, f"#link-{ref} form button")
    phone.wait_for_url("**/space?done=revoked#links")
    assert "revoked" in phone.locator(f"#link-{ref}").inner_text()
    assert phone.locator(f"#link-{ref} summary").count() == 0
    other = phone_context.browser.new_context()
    try:
        assert other.new_page().goto(link).status == 404
    finally:
        other.close()
