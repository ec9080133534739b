"""The accounts' pages of the browser app (docs/web.md, Accounts): each address is the app's one page, which routes
it itself; a mailed link's page names its token to nobody (no ``Referer``)."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

PAGES = ("/signup", "/signin", "/forgot", "/reset/abc-123", "/verify/abc_123", "/me", "/me/friends", "/me/settings",
         "/players/Anna", "/players/%C3%89lodie", "/seat/t1x/0")


@pytest.mark.parametrize("path", PAGES)
def test_each_account_page_is_the_apps_page(client: TestClient, path: str) -> None:
    answer = client.get(path, headers={"accept": "text/html"})
    assert answer.status_code == 200, path
    assert 'src="/static/app.js"' in answer.text


@pytest.mark.parametrize("path", ["/reset/abc-123", "/verify/abc_123"])
def test_a_mailed_links_page_sends_no_referrer(client: TestClient, path: str) -> None:
    answer = client.get(path, headers={"accept": "text/html"})
    assert answer.headers["referrer-policy"] == "no-referrer"
