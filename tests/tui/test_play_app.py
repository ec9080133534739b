"""The full-screen game driven as a person drives it, through Textual's pilot (issue 15, items 1-8)."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from textual.worker import WorkerState

from dreizehn.core.registry import game_class, game_ids
from dreizehn.tui.app import PassScreen, PlayApp, ScoringScreen
from dreizehn.tui.session import Session
from dreizehn.words import words

pytestmark = pytest.mark.anyio

QUICK = {"knizia13": {}, "three-thirteen": {"turn_limit": 40}, "holzwurm": {"games": 1}}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def screen_text(app: PlayApp) -> str:
    """Everything the terminal shows now, as text."""
    svg = app.export_screenshot()
    text = html.unescape(re.sub(r"<[^>]+>", "", svg.split("</style>", 1)[-1]))
    return text.replace("\xa0", " ")


async def settle(app: PlayApp, pilot: Pilot[None]) -> None:
    """Wait until the bots have played and the screen is drawn, or a screen waits for a key."""
    for _ in range(10_000):
        await pilot.pause()
        busy = [worker for worker in app.workers if worker.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        if not busy or isinstance(app.screen, ScoringScreen | PassScreen):
            await pilot.pause()
            return
    raise AssertionError("the app never settled")


def session(game_id: str, tmp_path: Path, *, people: tuple[str, ...] = ("Ann",), players: int | None = None,
            seed: int = 3, lang: str = "en") -> Session:
    count = players or game_class(game_id).min_players
    return Session.create(game_id, list(people), ["random"], count, seed, options=dict(QUICK[game_id]), lang=lang,
                          path=tmp_path / "game.json", hint_seconds=0.05)


COMPLETE = [pytest.param(game_id, marks=() if game_id == "holzwurm" or os.environ.get("DREIZEHN_PROFILE") == "long"
                         else pytest.mark.skip(reason="a minute or more on the pilot: make test-long plays it"))
            for game_id in game_ids()]


@pytest.mark.parametrize("game_id", COMPLETE)
async def test_a_complete_game_with_the_keyboard(game_id: str, tmp_path: Path) -> None:
    """A whole game on the keyboard: Holzwurm's match in every profile, 13 and Three Thirteen (a minute or more
    each at the pilot's pace) under make test-long; the line-by-line tests play a whole game of each game always."""
    played = session(game_id, tmp_path, seed=11)
    app = PlayApp(played, pause=0)
    scorings = 0
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        while not played.table.is_over:
            if isinstance(app.screen, ScoringScreen):
                scorings += 1
                await pilot.press("enter")
            else:
                await pilot.press("down", "enter")
            await settle(app, pilot)
        while isinstance(app.screen, ScoringScreen):
            scorings += 1
            await pilot.press("enter")
            await settle(app, pilot)
        assert scorings == len(played.table.state.stage_scores)
        assert played.table.view(0).is_over
        text = screen_text(app)
        assert "The game is over" in text and "Game saved to" in text
    assert (tmp_path / "game.json").exists()


async def test_the_pass_screen_hides_every_hand(tmp_path: Path) -> None:
    played = session("holzwurm", tmp_path, people=("Ann", "Ben"), players=3, seed=4)
    app = PlayApp(played, pause=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        first = played.viewer
        other = 1 - first
        await pilot.press("enter")
        await settle(app, pilot)
        if not isinstance(app.screen, PassScreen):  # the bot moved in between: still the pass screen comes
            await settle(app, pilot)
        assert isinstance(app.screen, PassScreen)
        text = screen_text(app)
        assert f"Pass the device to {played.names[other]}." in text
        hands = played.table.view(first).hand + played.table.view(other).hand  # type: ignore[attr-defined]
        labels = {played.game.card_type.of(card).text for card in hands}
        assert not [label for label in labels if re.search(rf"(?<![\w>]){re.escape(label)}(?![\w>])", text)]
        await pilot.press("enter")
        await settle(app, pilot)
        assert played.viewer == other
        shown = str(app.query_one("#hand", Static).content)  # the hand as drawn, in plain text
        mine = played.table.view(other).hand  # type: ignore[attr-defined]
        assert all(played.game.card_type.of(card).text in shown for card in mine)
        assert f"seen by {played.names[other]}" in screen_text(app)


async def test_an_illegal_typed_move_is_explained(tmp_path: Path) -> None:
    played = session("knizia13", tmp_path, players=3)
    app = PlayApp(played, pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        version = played.table.version
        await pilot.press(*"B7", "enter")
        await settle(app, pilot)
        message = str(app.query_one("#message", Static).render())
        assert message.endswith("(K9)") and played.table.version == version
        await pilot.press("ctrl+a", "ctrl+k", *"zz", "enter")
        await settle(app, pilot)
        assert "(A5)" in str(app.query_one("#message", Static).render())
        legal = played.legal()
        await pilot.press("ctrl+a", "ctrl+k", *legal[-1], "enter")
        await settle(app, pilot)
        assert played.table.state.history[version] == (0, played.game.parse_action(legal[-1]))


async def test_a_click_plays_a_move(tmp_path: Path) -> None:
    played = session("knizia13", tmp_path, players=3)
    app = PlayApp(played, pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        version = played.table.version
        second = played.view().legal_actions[1]
        await pilot.click("#moves", offset=(4, 1))
        await settle(app, pilot)
        assert played.table.state.history[version] == (0, second)


async def test_save_and_resume(tmp_path: Path) -> None:
    played = session("holzwurm", tmp_path, seed=8)
    app = PlayApp(played, pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("ctrl+q")
    history = played.table.state.history
    again = Session.resume(tmp_path / "game.json", seed=1, lang="en")
    assert again.table.state.history == history and again.person_seats == (0,)
    resumed = PlayApp(again, pause=0)
    async with resumed.run_test(size=(80, 24)) as pilot:
        await settle(resumed, pilot)
        assert again.my_turn()
        await pilot.press("enter")
        await settle(resumed, pilot)
        assert len(again.table.state.history) > len(history)


async def test_a_resize_redraws(tmp_path: Path) -> None:
    played = session("three-thirteen", tmp_path)
    app = PlayApp(played, pause=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(app, pilot)
        labels = [played.game.card_type.of(c).text[:-1] for c in played.view().hand]  # type: ignore[attr-defined]
        for size in ((60, 20), (140, 45), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            assert app.size == size
            text = screen_text(app)
            assert "It is your turn." in text
            assert all(label in text for label in labels)


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
async def test_a_phones_terminal_shows_every_key_and_the_whole_header(lang: str, tmp_path: Path) -> None:
    played = session("holzwurm", tmp_path, lang=lang)
    app = PlayApp(played, pause=0)
    said = words(lang)
    async with app.run_test(size=(46, 40)) as pilot:
        await settle(app, pilot)
        text = screen_text(app)
        assert app.screen.has_class("-narrow")
        left, right = app.query_one("#left").region, app.query_one("#right").region
        assert right.y >= left.bottom and right.width == left.width  # the course below the table, not beside it
        for key in ("tui.key.quit", "tui.key.hint", "tui.key.words"):
            assert said(key) in text
        assert said("tui.type_move_short") in text
        head = " ".join(line.strip() for line in str(app.query_one("#head", Static).render()).splitlines())
        assert said("view.your_turn") in text and head.split()[-1] in text  # the header's last line not cut off
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert not app.screen.has_class("-narrow")
        assert app.query_one("#right").region.x >= app.query_one("#left").region.right
        assert said("tui.type_move") in screen_text(app)


async def test_the_hint_key(tmp_path: Path) -> None:
    played = session("holzwurm", tmp_path)
    app = PlayApp(played, pause=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        await pilot.press("f2")
        await settle(app, pilot)
        hint = str(app.query_one("#hint", Static).render())
        assert hint.startswith("Hint (") and "chance to win" in hint
        assert "the master bot’s move first" in " ".join(hint.split())


@pytest.mark.parametrize("lang", ["de", "nl"])
async def test_each_language(lang: str, tmp_path: Path) -> None:
    played = session("knizia13", tmp_path, players=3, lang=lang)
    app = PlayApp(played, pause=0)
    said = words(lang)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(app, pilot)
        text = screen_text(app)
        assert said("view.your_turn") in text
        assert said("tui.key.quit") in text
        first = app.query_one("#moves", OptionList).get_option_at_index(0)
        assert played.game.say_action(said, played.view().legal_actions[0]) in str(first.prompt)


def visible_lines(widget: OptionList) -> list[str]:
    """The lines of ``widget`` as drawn now."""
    return [widget.render_line(y).text for y in range(widget.scrollable_content_region.height)]


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
async def test_a_phones_terminal_shows_each_move_whole(lang: str, tmp_path: Path) -> None:
    """On a phone, a move's description that no longer fits once the list needs its scroll bar wraps onto the next
    line instead of losing its end (the list's lines were counted before the bar took two columns)."""
    played = session("holzwurm", tmp_path, lang=lang, seed=7)
    app = PlayApp(played, pause=0)
    async with app.run_test(size=(46, 40)) as pilot:
        checked = 0
        for _turn in range(4):
            await settle(app, pilot)
            moves = app.query_one("#moves", OptionList)
            for index in range(moves.option_count):
                moves.highlighted = index
                await pilot.pause()
                shown = " ".join(" ".join(visible_lines(moves)).split())
                prompt = " ".join(str(moves.get_option_at_index(index).prompt).split())
                assert prompt in shown, (prompt, visible_lines(moves))
                checked += 1
            moves.highlighted = 0
            await pilot.press("enter")
        assert checked > 20


async def test_thirteens_targets_keep_every_card_and_sum_at_phone_width(tmp_path: Path) -> None:
    """13's three targets side by side: on a phone (and at 80 columns, once a target holds five cards) a heading
    wraps and a target's cards go on below, where they were cut off with an ellipsis."""
    played = session("knizia13", tmp_path, players=3, seed=7, lang="de")
    app = PlayApp(played, pause=0)
    async with app.run_test(size=(46, 44)) as pilot:
        for _turn in range(4):
            await settle(app, pilot)
            await pilot.press("enter")
        await settle(app, pilot)
        view, game = played.view(), played.game
        targets = [list(t) for t in view.targets]  # type: ignore[attr-defined]
        assert max(len(t) for t in targets) >= 4
        table = app.query_one("#table", Static)
        drawn = " ".join(" ".join(table.render_line(y).text for y in range(table.region.height)).split())
        assert "…" not in drawn
        said = words("de")
        for cards in targets:
            for card in cards:
                assert game.card_type.of(card).text in drawn.split()
        for index, cards in enumerate(targets):
            total = sum(game.card_type.of(c).value for c in cards)  # type: ignore[attr-defined]
            assert f"{total})" in drawn, (index, drawn)
        assert said("tui.your_hand") in screen_text(app)


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
async def test_a_phones_hint_shows_its_three_moves_each_on_a_line(lang: str, tmp_path: Path) -> None:
    """On a phone each move of the hint takes one line (its notation, chance and points), so all three fit; widened,
    the same hint says each move in words too."""
    played = session("holzwurm", tmp_path, lang=lang, seed=7)
    app = PlayApp(played, pause=0)
    said = words(lang)
    async with app.run_test(size=(46, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("f2")
        await settle(app, pilot)
        shown = app.shown_hint
        assert shown is not None and shown.search is not None and shown.level == "master"
        text = screen_text(app)
        short = played.hint_lines(shown, short=True)
        assert len(short) >= 4 and all(len(line) <= 44 for line in short[1:])  # a note (issue 49) wrapped too
        for line in short[1:4]:
            assert line in text
        assert said(f"tui.level.{shown.level}") in " ".join(text.split())
        await pilot.resize_terminal(110, 40)
        await pilot.pause()
        box = app.query_one("#hint", Static)
        wide = " ".join(" ".join(box.render_line(y).text for y in range(box.region.height)).split())
        for rating in shown.ratings[:3]:
            assert " ".join(played.game.say_action(said, rating.action).split()) in wide
