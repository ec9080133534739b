"""``dreizehn play --plain`` through a pipe, as a script plays it: it reads each ``legal:`` line and answers a move
(issue 15, items 1, 5-8)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from dreizehn.core.errors import BotError, UsageError
from dreizehn.core.record import load
from dreizehn.tui.session import Session
from dreizehn.words import words

GAMES = {
    "knizia13": ["--players", "3"],
    "three-thirteen": ["--players", "2", "-o", "turn_limit=40"],
    "holzwurm": ["--players", "2", "-o", "games=1"],
}


def play(args: list[str], cwd: Path, *, moves: int | None = None, answers: list[str] | None = None,
         seed: int = 1) -> tuple[list[str], int]:
    """Run ``dreizehn play ARGS --plain`` and answer each ``legal:`` line: first with ``answers`` in order, then with
    a random legal move; after ``moves`` moves close the input. Returns the lines printed and the exit status."""
    process = subprocess.Popen([sys.executable, "-m", "dreizehn.cli.main", "play", *args, "--plain"], cwd=cwd,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               encoding="utf-8", env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
                                                        "PYTHONPATH": os.environ.get("PYTHONPATH", "")})
    assert process.stdin is not None and process.stdout is not None
    rng = random.Random(seed)
    queued = list(answers or [])
    lines: list[str] = []
    played = 0
    for raw in process.stdout:
        line = raw.rstrip("\n")
        lines.append(line)
        if not line.startswith("legal: ") or process.stdin.closed:
            continue
        legal = line.removeprefix("legal: ").split(", ")
        if not queued and moves is not None and played >= moves:
            process.stdin.close()
            continue
        answer = queued.pop(0) if queued else rng.choice(legal)
        played += answer in legal
        process.stdin.write(answer + "\n")
        process.stdin.flush()
    process.wait(timeout=60)
    assert process.stderr is not None
    assert process.stderr.read() == ""
    return lines, process.returncode


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_complete_game_of_each_game(game_id: str, tmp_path: Path) -> None:
    lines, status = play([game_id, *GAMES[game_id], "--bots", "random", "--seed", "5"], tmp_path)
    assert status == 0
    over = [line for line in lines if line.startswith("The game is over")]
    assert len(over) == 1
    assert lines[-1].startswith(f"Game saved to dreizehn-{game_id}-5.json")
    state = load(tmp_path / f"dreizehn-{game_id}-5.json")
    assert state.is_over
    assert all(line.startswith("legal: ") for line in lines if line.startswith("legal"))
    marked = [line for line in lines if line.startswith("Moves that take cards: ")]  # issue 49, item 13
    assert bool(marked) == (game_id != "three-thirteen")


def test_an_illegal_move_is_answered_in_words_and_the_turn_goes_on(tmp_path: Path) -> None:
    lines, status = play(["knizia13", "--players", "3", "--bots", "random", "--seed", "3", "--names", "Ann"],
                         tmp_path, moves=1, answers=["nonsense", "B5"])
    assert status == 0
    refusals = [line for line in lines if line.startswith("! ")]
    assert refusals[0] == "! 'nonsense' is not a play of 13 (such as B5 or R4>Y)."  # issue 49, item 14: no rule id
    assert refusals[1] == "! You do not hold B5."
    first = lines.index("legal: Y2, Y4, Y5, G1, G7")
    assert lines[first + 1:first + 5] == [refusals[0], "legal: Y2, Y4, Y5, G1, G7", refusals[1],
                                          "legal: Y2, Y4, Y5, G1, G7"]
    assert any(line.startswith("Ann puts") for line in lines)


def test_status_and_hint(tmp_path: Path) -> None:
    lines, _ = play(["holzwurm", "--players", "2", "--bots", "random", "--seed", "2", "--hint-time", "0.05"], tmp_path,
                    moves=0, answers=["status", "hint"])
    first = next(i for i, line in enumerate(lines) if line.startswith("legal: "))
    view = lines[:first]
    again = lines[first + 1:]
    assert "It is your turn." in view and "It is your turn." in again
    hint = again.index("Thinking about a hint…")
    assert again[hint + 1].startswith("Hint (")
    best = again[hint + 2]
    assert best.split(" ")[0] in lines[first].removeprefix("legal: ").split(", ")
    assert "chance to win" in best


def test_the_end_of_input_saves_and_resume_goes_on(tmp_path: Path) -> None:
    lines, status = play(["knizia13", "--players", "3", "--bots", "easy,random", "--seed", "9"], tmp_path, moves=2)
    assert status == 0
    saved = tmp_path / "dreizehn-knizia13-9.json"
    assert lines[-1] == (f"Game saved to {saved.name}; continue it with: dreizehn play --resume {saved.name}")
    first = json.loads(saved.read_text(encoding="utf-8"))
    assert first["players"] == ["Player", "easy", "random"] and not first["over"]
    mine = [action for seat, action in first["actions"] if seat == 0]
    assert len(mine) == 2
    lines, status = play(["--resume", saved.name, "--seed", "1"], tmp_path)
    assert status == 0
    assert lines[0] == "13 with Player, Ada (easy) and Bruno (random)."
    done = json.loads(saved.read_text(encoding="utf-8"))
    assert done["over"] and done["actions"][:len(first["actions"])] == first["actions"]
    assert done["players"] == first["players"]


def test_two_people_pass_the_device(tmp_path: Path) -> None:
    lines, _ = play(["holzwurm", "--players", "3", "--names", "Ann,Ben", "--bots", "random", "--seed", "4"],
                    tmp_path, moves=3)
    handovers = [line for line in lines if line.startswith(">> ")]
    assert handovers[:2] in ([">> Pass the device to Ben.", ">> Pass the device to Ann."],
                             [">> Pass the device to Ann.", ">> Pass the device to Ben."])


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_each_language(lang: str, tmp_path: Path) -> None:
    lines, status = play(["three-thirteen", "--players", "2", "--bots", "random", "--seed", "6", "--lang", lang],
                         tmp_path, moves=1)
    said = words(lang)
    assert status == 0
    assert said("view.your_turn") in lines
    bot = said("tui.bot_name", name="Ada", bot=said("tui.bot.random"))
    assert lines[0] == said("tui.playing", game="Three Thirteen", players=said.join([said("tui.you"), bot]))
    assert lines[-1].startswith(said("tui.saved", path="X").split("X")[0])
    assert any(line.startswith("legal: ") for line in lines)


def test_a_name_that_names_a_bot_is_refused(tmp_path: Path) -> None:
    process = subprocess.run([sys.executable, "-m", "dreizehn.cli.main", "play", "knizia13", "--names", "random",
                              "--plain"], cwd=tmp_path, capture_output=True, text=True, input="")
    assert process.returncode == 2
    assert "'random' names a bot" in process.stderr


def test_a_bot_is_named_by_the_level_it_plays(tmp_path: Path) -> None:
    """A level a game lacks plays its strongest there, and the seat says which: Three Thirteen has no master."""
    session = Session.create("three-thirteen", ["Ada"], ["master"], 2, 1, path=tmp_path / "g.json")
    said = words("en")
    assert session.labels[1] == said("tui.bot_name", name="Bruno", bot=said("tui.level.expert"))
    session = Session.create("knizia13", ["Ada"], ["master", "easy"], 3, 1, path=tmp_path / "h.json")
    assert session.labels[1:] == [said("tui.bot_name", name="Bruno", bot=said("tui.level.master")),
                                  said("tui.bot_name", name="Clara", bot=said("tui.level.easy"))]


@pytest.mark.parametrize(("lang", "label"), [("en", "Bruno (trained)"), ("de", "Bruno (trainiert)"),
                                             ("nl", "Bruno (getraind)")])
def test_a_bot_no_level_offers_is_named_by_the_levels_word(lang: str, label: str, tmp_path: Path) -> None:
    """Three Thirteen offers no ``learned`` level, but at 2 players the bot of that name plays: its seat says so in
    the reader's words, as the level's seats do, not as the name was typed."""
    session = Session.create("three-thirteen", ["Ada"], ["learned"], 2, 1, lang=lang, path=tmp_path / "g.json")
    assert session.labels[1] == label


@pytest.mark.parametrize(("lang", "words_of_the_bots"), [
    ("en", ["Clara (easy)", "Emil (random)", "Frida (heuristic)", "Gustav (ismcts:iterations=50)"]),
    ("de", ["Clara (leicht)", "Emil (zufällig)", "Frida (heuristisch)", "Gustav (ismcts:iterations=50)"]),
    ("nl", ["Clara (makkelijk)", "Emil (willekeurig)", "Frida (heuristisch)", "Gustav (ismcts:iterations=50)"]),
])
def test_a_bot_is_named_like_a_person_with_what_it_plays_in_the_readers_words(
        lang: str, words_of_the_bots: list[str], tmp_path: Path) -> None:
    """People read names, never seat numbers: a bot sits under a name of ``BOT_NAMES`` that no person at the table
    has (letter case aside), as in the browser, its level or kind of bot beside it in the reader's language where the
    seats are listed (a search's specification, typed by a researcher, as it was typed), and alone in sentences. A
    resumed game names them the same."""
    session = Session.create("knizia13", ["Ada", "bruno"], ["easy", "random", "heuristic", "ismcts:iterations=50"], 6,
                             1, lang=lang, path=tmp_path / "g.json")
    assert session.labels == ["Ada", "bruno", *words_of_the_bots]
    assert session.names == ["Ada", "bruno", "Clara", "Emil", "Frida", "Gustav"]
    session.save()
    resumed = Session.resume(tmp_path / "g.json", seed=1, lang=lang)
    assert (resumed.labels, resumed.names) == (session.labels, session.names)


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_the_learned_level_is_picked_by_name_where_it_plays(tmp_path: Path, lang: str) -> None:
    """``--bots learned`` seats the learned level in 13 and Holzwurm at 4 players, named by its word, and the help
    says what it is; at 3 players it is refused by the bot's rule (B5), and a name that is no bot lists the levels
    offered at that count, ``learned`` among them only at 4."""
    said = words(lang)
    for game_id in ("knizia13", "holzwurm"):
        session = Session.create(game_id, ["Ada"], ["learned", "hard"], 4, 1, lang=lang, path=tmp_path / "g.json")
        assert session.labels[1:] == [said("tui.bot_name", name="Bruno", bot=said("tui.level.learned")),
                                      said("tui.bot_name", name="Clara", bot=said("tui.level.hard")),
                                      said("tui.bot_name", name="Emil", bot=said("tui.level.hard"))]
        assert said("tui.level_about.learned") in session.help_lines()
        with pytest.raises(BotError) as refused:
            Session.create(game_id, ["Ada"], ["learned"], 3, 1, lang=lang, path=tmp_path / "h.json")
        assert (refused.value.code, refused.value.rule) == ("bot.fitted", "B5")
    for players, listed in ((4, "easy, medium, learned, hard"), (3, "easy, medium, hard")):
        with pytest.raises(UsageError) as unknown:
            Session.create("knizia13", ["Ada"], ["genius"], players, 1, path=tmp_path / "i.json")
        assert unknown.value.params["levels"].startswith(listed + ", expert")
    plain = Session.create("knizia13", ["Ada"], ["medium"], 4, 1, lang=lang, path=tmp_path / "j.json")
    assert said("tui.level_about.learned") not in plain.help_lines()


def test_hot_seat_names_the_first_person_before_the_deal(tmp_path: Path) -> None:
    """Issue 49, item 10: with several people the first line after the names is who gets the device (then the deal
    in their words, which names their cards)."""
    lines, status = play(["holzwurm", "--players", "3", "--bots", "random", "--seed", "4", "--names", "Ann,Ben",
                          "-o", "games=1"], tmp_path, moves=1)
    assert status == 0
    first = next(i for i, line in enumerate(lines) if line.startswith(">> "))
    assert first == 0 and lines[0] in (">> Pass the device to Ann.", ">> Pass the device to Ben.")


def test_help_and_undo_in_plain(tmp_path: Path) -> None:
    """Issue 49, item 13: ``?`` and ``help`` print the commands and the rules in short; ``undo`` takes back the
    person's move and the bots' after it, then the turn goes on."""
    lines, status = play(["holzwurm", "--players", "3", "--bots", "random", "--seed", "4", "--names", "Ann", "-o",
                          "games=1"], tmp_path, moves=2, answers=["?", "undo", "help", "R10>new", "undo"])
    assert status == 0
    said = words("en")
    assert lines.count("Help: Der dreizehnte Holzwurm") == 2 and lines.count(said("tui.help.plain")) == 2
    assert said("holzwurm.rules").split("\n")[0] in lines
    assert "! You have no move to take back." in lines
    back = lines.index("Ann took back 3 moves.")
    assert lines[back - 1].startswith("legal: ") and "Ann plays the red 10" in " ".join(lines[:back])


def test_help_shows_no_type_after_a_flag() -> None:
    """Issue 49, item 14: ``dreizehn play --help`` prints no ``<bool>`` after ``--plain`` and the other flags."""
    from typer.testing import CliRunner

    from dreizehn.cli.main import app

    result = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0 and "--plain" in result.output and "--no-save" in result.output
    assert "<bool>" not in result.output and "<int>" in result.output


@pytest.mark.parametrize("lang", ["en", "de", "nl"])
def test_holzwurm_says_what_a_move_takes_as_its_log_counts_it(lang: str, tmp_path: Path) -> None:
    """Issue 49, item 7: a move that takes a row is marked with the row's cards counted as the log then counts them
    (the card played among them) and the fate card named apart, in Holzwurm's words, not "takes 2 cards"."""
    session = Session.create("holzwurm", ["Ann"], ["random"], 2, 3, options={"games": 1}, lang=lang,
                             path=tmp_path / "g.json", saving=False)
    rng = random.Random(3)
    w = words(lang)
    while not session.table.is_over:
        session.play_bots()
        taking = [a for a in session.view().legal_actions if session.takes(a)]
        if taking:
            break
        session.submit(rng.choice(session.legal()))
    action = taking[0]
    n, points = session.game.action_cost(session.view(), action) or (0, 0)
    marked = session.takes(action)
    assert marked == w("holzwurm.takes", n=n, points=f"+{points}" if points > 0 else f"−{-points}" if points else "±0")
    told = [line.text for line in session.say_update(session.submit(action))]
    cards = next(event.params["cards"] for event in session.updates[-1].events if event.key == "holzwurm.took")
    row = w("holzwurm.took.cards", n=len(cards), cards="…").removesuffix(" (…)")
    assert row in marked and any(row in line for line in told), (marked, told)
