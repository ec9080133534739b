"""The browser app's pages of issue 47 (docs/web.md): ``/daily``, ``/leaderboard`` and ``/leaderboard/{game}`` are
the app's page; a leaderboard of a game the server does not offer is not found (the app's page with 404)."""

from __future__ import annotations

from starlette.testclient import TestClient

BROWSER = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def test_the_daily_and_leaderboard_pages_are_the_apps_page(module_server: TestClient) -> None:
    for path in ("/daily", "/leaderboard", "/leaderboard/knizia13", "/leaderboard/holzwurm"):
        answer = module_server.get(path, headers=BROWSER)
        assert answer.status_code == 200 and 'id="app"' in answer.text, path
    answer = module_server.get("/leaderboard/chess", headers=BROWSER)
    assert answer.status_code == 404 and 'id="app"' in answer.text
