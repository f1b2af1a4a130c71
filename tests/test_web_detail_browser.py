"""The figure page in Chromium (issue 17, item 3): the selected panel names the heading and the copied
attribution; the search state stays in the URL; back, previous/next, downloads, the PDF page; and
the Search button fits a 375 px wide phone screen."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import sync_playwright
from test_web_browser import CHROMIUM, CHROMIUM_ARGS, server  # noqa: F401  (the module's server fixture)


def _params(url: str) -> dict:
    return {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}


def test_detail_page_state_selection_navigation_and_files(server, tmp_path):  # noqa: F811
    assert Path(CHROMIUM).is_file(), "install Debian's Chromium: apt-get install -y chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
        page = context.new_page()
        page.goto(server + "/?q=cyst&licence=cc&per_page=4")
        total = int(page.locator("#summary").get_attribute("data-total"))
        cards = page.locator("#results li.card")
        assert total > cards.count() == 4  # the count is of all matches, not of the page
        assert "matching" in page.locator("#summary").inner_text()

        # a new query typed in the header keeps the filters (and starts at page 1)
        page.fill("#q", "haematoxylin eosin")
        page.click("#search-button")
        page.wait_for_selector("#results li.card")
        state = _params(page.url)
        assert state["q"] == "haematoxylin eosin" and state["licence"] == "cc" and state["per_page"] == "4"

        # the figure page keeps the state in its URL and links back to the results
        page.locator("#results li.card[data-kind=panel] a.result-link").first.click()
        page.wait_for_selector("#panel-boxes rect.panel-box")
        assert _params(page.url)["licence"] == "cc" and _params(page.url)["q"] == "haematoxylin eosin"
        back = page.locator("#back-to-results").get_attribute("href")
        assert _params(back) == {"q": "haematoxylin eosin", "licence": "cc", "per_page": "4"}
        assert page.locator("#result-position").inner_text().startswith("result 1 of ")

        # select another panel: heading, attribution (and what Copy puts on the clipboard), download follow it
        selected = page.locator("#figure-page").get_attribute("data-selected")
        other = page.locator(f'rect.panel-box:not([data-panel="{selected}"])').first
        letter = other.get_attribute("data-label")
        assert letter
        other.click()
        assert page.locator("#selected-chip").inner_text() == f"panel ({letter})"
        page.click("#copy-attribution")
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == page.locator("#attribution").input_value()
        assert f"({letter}) from " in copied and f"({selected}) from " not in copied
        assert page.locator("#download-panel").get_attribute("href") == \
            f"/img/panel/{other.get_attribute('data-doc-id')}?download=1"
        assert _params(page.url)["panel"] == other.get_attribute("data-panel") and "licence" in _params(page.url)
        page.reload()  # the URL alone restores the selection and its attribution
        assert page.locator("#selected-chip").inner_text() == f"panel ({letter})"
        assert f"({letter}) from " in page.locator("#attribution").input_value()

        # downloads of the figure image and of the selected panel
        with page.expect_download() as figure_download:
            page.click("#download-figure")
        saved = tmp_path / figure_download.value.suggested_filename
        figure_download.value.save_as(saved)
        assert saved.suffix in (".png", ".jpg", ".jpeg") and saved.stat().st_size > 1000
        with page.expect_download() as panel_download:
            page.click("#download-panel")
        assert panel_download.value.suggested_filename.endswith(f"_{other.get_attribute('data-panel')}.png") or \
            f"_{other.get_attribute('data-panel')}." in panel_download.value.suggested_filename

        # the PDF link opens the article's PDF at the figure's page
        pdf = page.locator("#pdf-page").get_attribute("href")
        assert "#page=" in pdf and int(pdf.rsplit("=", 1)[1]) >= 1
        with urllib.request.urlopen(server + pdf.split("#")[0]) as response:
            assert response.headers["content-type"] == "application/pdf" and response.read(5) == b"%PDF-"

        # next result, then previous brings back the same page
        here = page.url.split("&panel=")[0]
        page.click("#next-result")
        page.wait_for_selector("#figure-page")
        assert page.locator("#result-position").inner_text().startswith("result 2 of ")
        assert _params(page.url)["licence"] == "cc"
        page.click("#prev-result")
        page.wait_for_selector("#figure-page")
        assert page.url.split("&panel=")[0].split("?")[0] == here.split("?")[0]

        # a phone-width screen: the Search button is wholly on screen
        phone = context.new_page()
        phone.set_viewport_size({"width": 375, "height": 740})
        for url in ("/", "/?q=cyst&licence=cc", page.url):
            phone.goto(url if url.startswith("http") else server + url)
            box = phone.locator("#search-button").bounding_box()
            # (before: the button began at x=334 and was 70 px wide, its right part off screen)
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375, (url, box)
        browser.close()
