"""The language switcher at a phone's size: it changes the page's language, is remembered, and each of its
links is a 44 px target; with and without JavaScript."""

from __future__ import annotations

import pytest

from tests.browser.conftest import screenshot

pytestmark = pytest.mark.browser


def _switch(page, label: str) -> None:
    with page.expect_navigation():
        page.locator(".lang-switch a", has_text=label).click()


def test_the_switcher_changes_the_language_and_remembers_it(phone):
    phone.goto(phone.base + "/history?game=spitzer")
    assert phone.locator("html").get_attribute("lang") == "en"
    boxes = [phone.locator(".lang-switch a").nth(i).bounding_box() for i in range(3)]
    assert all(b["width"] >= 44 and b["height"] >= 44 for b in boxes), boxes

    _switch(phone, "日本語")
    assert phone.url.endswith("/history?game=spitzer&lang=ja")  # the same page (and its filter)
    assert phone.locator("html").get_attribute("lang") == "ja"
    assert phone.locator(".nav-links").inner_text().split() == ["履歴", "レーティング", "ルール"]

    phone.goto(phone.base + "/")  # no ?lang= now: the cookie remembers it
    assert phone.locator("html").get_attribute("lang") == "ja"
    assert phone.get_by_role("link", name="対局を始める").is_visible()
    assert phone.locator('.lang-switch a[aria-current="true"]').inner_text() == "日本語"
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    screenshot(phone, "home-ja")

    _switch(phone, "DE")
    phone.goto(phone.base + "/")
    assert phone.locator("html").get_attribute("lang") == "de"
    assert phone.get_by_role("link", name="Partie beginnen").is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "home-de")

    _switch(phone, "EN")
    phone.goto(phone.base + "/")
    assert phone.get_by_role("link", name="Start a match").is_visible()


def test_the_switcher_works_without_javascript(phone_without_js):
    page = phone_without_js
    page.goto(page.base + "/rules")
    _switch(page, "DE")
    assert page.locator("html").get_attribute("lang") == "de"
    page.goto(page.base + "/")
    assert page.get_by_role("link", name="Partie beginnen").is_visible()
