"""The arena (dreizehn.study.arena, ``dreizehn arena``): any agent against the levels on published seeds, the same seeds
the same games, and an agent's faults scored as documented while the run goes on."""

from __future__ import annotations

import random
import sys
import threading
import types
from collections.abc import Iterator

import numpy as np
import pytest
from typer.testing import CliRunner

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.cli.main import app
from dreizehn.core.errors import UsageError
from dreizehn.core.game import View
from dreizehn.study.arena import load_agent, play_arena

RELEASE = threading.Event()
SEEN: list[tuple[int, int]] = []


def lowest(view: View) -> int:
    return min(view.legal_actions)


class ByMask:
    def __init__(self, game: dreizehn.Game) -> None:
        self.actions = game.num_actions

    def act(self, observation: np.ndarray, mask: np.ndarray) -> int:
        assert observation.dtype == np.float32 and mask.shape == (self.actions,) and mask.dtype == np.bool_
        SEEN.append((int(mask.sum()), int(np.flatnonzero(mask)[0])))
        return int(np.flatnonzero(mask)[0])


def raises(view: View) -> int:
    if len(view.history) > 20:
        raise ValueError("out of ideas")
    return view.legal_actions[0]


def illegal(view: View) -> int:
    return 99 if view.stage == 1 else view.legal_actions[0]


def hangs(view: View) -> int:
    if view.stage == 1:
        RELEASE.wait()
    return view.legal_actions[0]


def three(a: object, b: object, c: object) -> int:
    return 0


@pytest.fixture(autouse=True)
def agents() -> Iterator[None]:
    RELEASE.clear()
    module = types.ModuleType("arena_test_agents")
    for thing in (lowest, ByMask, raises, illegal, hangs, three):
        setattr(module, thing.__name__, thing)
    sys.modules["arena_test_agents"] = module
    yield
    RELEASE.set()
    del sys.modules["arena_test_agents"]


def test_same_seeds_same_games_and_seats_rotate() -> None:
    a = play_arena("knizia13", 4, "arena_test_agents:lowest", levels=["easy", "medium"], games=8, seed=5)
    b = play_arena("knizia13", 4, "arena_test_agents:lowest", levels=["easy", "medium"], games=8, seed=5)
    assert [r.margins for r in a.rows] == [r.margins for r in b.rows] and a.places == b.places
    c = play_arena("knizia13", 4, "arena_test_agents:lowest", levels=["easy", "medium"], games=8, seed=6)
    assert [r.margins for r in a.rows] != [r.margins for r in c.rows]
    assert not a.faults and [r.games for r in a.rows] == [8, 8]
    names = [name for name, _, _ in a.ratings()]
    assert sorted(names) == ["arena_test_agents:lowest", "easy", "medium"]
    mean, low, high = a.rows[0].interval()
    assert low < mean < high


def test_an_agent_of_observation_and_mask_sees_the_legal_actions() -> None:
    SEEN.clear()
    result = play_arena("holzwurm", 3, "arena_test_agents:ByMask", levels=["easy"], games=3)
    assert not result.faults and result.rows[0].games == 3 and SEEN and all(count > 0 for count, _ in SEEN)


@pytest.mark.parametrize(("agent", "kind"), [("raises", "raised"), ("illegal", "illegal"), ("hangs", "time")])
def test_a_fault_forfeits_its_game_and_the_run_goes_on(agent: str, kind: str) -> None:
    result = play_arena("knizia13", 3, f"arena_test_agents:{agent}", levels=["easy", "medium"], games=3,
                        time_limit=0.2)
    assert [r.games for r in result.rows] == [3, 3]  # every game played to its end
    assert {f.kind for f in result.faults} == {kind} and len(result.faults) == 6  # one fault a game, then forfeit
    assert {(f.level, f.game) for f in result.faults} == {(lv, g) for lv in ("easy", "medium") for g in range(3)}
    assert all(mine == 3.0 for _, mine, _ in result.places)  # placed last in every forfeited game
    assert all(r.wins == 0.0 for r in result.rows)


def test_agents_that_cannot_play_are_refused() -> None:
    game = dreizehn.load_game("knizia13", 3)
    for text, code in [("no_such_module_here:f", "arena.agent"), ("arena_test_agents", "arena.agent"),
                       ("arena_test_agents:nothing", "arena.agent"), ("arena_test_agents:three", "arena.agent_act")]:
        with pytest.raises(UsageError) as caught:
            load_agent(text, game)
        assert caught.value.code == code and caught.value.rule == "C10"
    assert load_agent("expert", game).name == "expert"


def test_the_command_prints_points_ratings_and_faults() -> None:
    result = CliRunner().invoke(app, ["arena", "knizia13", "--agent", "arena_test_agents:raises", "-n", "2",
                                      "--levels", "easy", "--time-limit", "5"], env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert "points a game" in result.output and "openskill ratings" in result.output
    assert "games forfeited by the agent's faults: 2 (2 raised)" in result.output and "out of ideas" in result.output
    refused = CliRunner().invoke(app, ["arena", "knizia13", "--agent", "nowhere:f"], env={"COLUMNS": "160"})
    assert refused.exit_code != 0 and "C10" in refused.output


def test_the_example_agents_play(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/envs.md's example agents, loaded from the checkout as the documented command loads them."""
    from pathlib import Path

    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    for agent, faults in [("lowest", 0), ("FirstLegal", 0), ("Broken", 2)]:
        result = play_arena("knizia13", 4, f"examples.arena_agent:{agent}", levels=["easy"], games=2)
        assert len(result.faults) == faults and result.rows[0].games == 2


def test_a_bot_is_named_over_a_level_of_its_name_by_a_trailing_colon() -> None:
    """In Holzwurm at 4 players the level ``learned`` is played by the ``policy`` bot; ``learned:`` seats the
    ``learned`` bot itself, in the arena as everywhere a bot is named (docs/bots.md, B1)."""
    game = dreizehn.load_game("holzwurm", 4)
    assert load_agent("learned", game).name == "learned" and load_agent("learned:", game).name == "learned:"
    chosen = {}
    for name in ("learned", "learned:"):
        state = game.new_state(seed=5)
        chosen[name] = load_agent(name, game).decide(state, state.current_player, random.Random(0))
    level, itself = make_bot("learned", game), make_bot("learned:", game)
    assert (level.name, itself.name) == ("policy", "learned")
    state = game.new_state(seed=5)
    view = state.view(state.current_player)
    assert chosen["learned"] == level.act(view, random.Random(0)) != itself.act(view, random.Random(0))
    assert chosen["learned:"] == itself.act(view, random.Random(0))
    result = play_arena("holzwurm", 4, "learned:", levels=["heuristic"], games=2)
    assert not result.faults and result.rows[0].games == 2


def test_the_first_move_may_take_longer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent's first move of the run (where a search's code loads and compiles) is held to FIRST_MOVE, the
    others to the time limit: an agent slow only on its first move forfeits nothing."""
    import dreizehn.study.arena as arena_module

    calls: list[int] = []

    def slow_first(view: View) -> int:
        calls.append(1)
        if len(calls) == 1:
            RELEASE.wait(1.0)  # longer than the time limit below, far shorter than FIRST_MOVE
        return view.legal_actions[0]

    monkeypatch.setattr(sys.modules["arena_test_agents"], "slow_first", slow_first, raising=False)
    monkeypatch.setattr(arena_module, "FIRST_MOVE", 30.0)
    result = play_arena("knizia13", 3, "arena_test_agents:slow_first", levels=["easy"], games=2, time_limit=0.25)
    assert not result.faults and len(calls) > 2
