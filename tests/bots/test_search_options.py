"""The ``ismcts`` options as a value (:class:`~dreizehn.bots.search_options.SearchOptions`): text round trips, every
refusal names its option with the codes of docs/bots.md (B1 to B4), and each game resolves ``auto`` its own way."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

import dreizehn
from dreizehn.bots.base import make_bot
from dreizehn.bots.ismcts import IsmctsBot
from dreizehn.bots.search_options import SearchOptions
from dreizehn.core.errors import BotSpecError

WHOLE = st.integers(0, 10**6)
NUMBER = st.floats(0, 1e6, allow_nan=False) | st.just(math.inf)


@st.composite
def search_options(draw: st.DrawFn) -> SearchOptions:
    """Any valid options, each field left at its default or drawn."""
    drawn: dict[str, object] = {}
    values: dict[str, st.SearchStrategy[object]] = {
        "iterations": WHOLE, "time": st.none() | NUMBER, "c": NUMBER, "scale": st.none() | st.floats(1e-3, 1e6),
        "cutoff": WHOLE, "prune": st.just("auto") | WHOLE, "potential": NUMBER, "lead": NUMBER,
        **{name: st.sampled_from(choices) for name, choices in SearchOptions.CHOICES.items()},
    }
    for name, strategy in values.items():
        if draw(st.booleans()):
            drawn[name] = draw(strategy)
    return SearchOptions.from_mapping(drawn)


@given(search_options())
def test_text_round_trip(options: SearchOptions) -> None:
    text = options.to_text()
    assert SearchOptions.from_text(text) == options
    assert str(options) == text
    assert SearchOptions.from_text(text.removeprefix("ismcts").lstrip(":")) == options  # the name is optional


def test_text_names_only_what_differs() -> None:
    assert SearchOptions().to_text() == "ismcts"
    assert SearchOptions.from_text("ismcts") == SearchOptions() == SearchOptions.from_text("")
    options = SearchOptions.from_text("ismcts:prune=2:horizon=GAME:time=0.5")
    assert options == SearchOptions(time=0.5, horizon="game", prune=2)
    assert options.to_text() == "ismcts:time=0.5:horizon=game:prune=2"
    at_defaults = SearchOptions(c=0.7, prune="AUTO")  # type: ignore[arg-type]  # a choice in any letter case
    assert at_defaults.to_text() == "ismcts"  # given at their defaults: not written


def test_text_and_values_make_the_same_options() -> None:
    typed = SearchOptions(iterations=600, cutoff=8, playout="heuristic", prune=2, infer="on", value="learned")
    assert SearchOptions.from_text("ismcts:playout=heuristic:prune=2:cutoff=8:iterations=600:infer=on:value=learned"
                                   ) == typed
    assert (typed.iterations, typed.cutoff, typed.prune) == (600, 8, 2)
    assert SearchOptions(iterations="1e3").iterations == 1000  # type: ignore[arg-type]  # text as typed is read


@pytest.mark.parametrize(
    ("text", "code", "key"),
    [
        ("iterations=-1", "bot.option_whole", "iterations"),
        ("iterations=2.5", "bot.option_whole", "iterations"),
        ("cutoff=x", "bot.option_whole", "cutoff"),
        ("c=x", "bot.option_number", "c"),
        ("time=soon", "bot.option_number", "time"),
        ("time=nan", "bot.option_number", "time"),
        ("lead=-0.1", "bot.option_number", "lead"),
        ("potential=-1", "bot.option_number", "potential"),
        ("horizon=forever", "bot.option_choice", "horizon"),
        ("reward=money", "bot.option_choice", "reward"),
        ("root=widest", "bot.option_choice", "root"),
        ("playout=clever", "bot.option_choice", "playout"),
        ("tree=maybe", "bot.option_choice", "tree"),
        ("infer=yes", "bot.option_choice", "infer"),
        ("replay=yes", "bot.option_choice", "replay"),
        ("value=guess", "bot.option_choice", "value"),
        ("standing=yes", "bot.option_choice", "standing"),
    ],
)
def test_a_bad_value_names_its_option(text: str, code: str, key: str) -> None:
    with pytest.raises(BotSpecError) as refused:
        SearchOptions.from_text(text)
    assert (refused.value.code, refused.value.rule, refused.value.params["key"]) == (code, "B4", key)
    assert f"ismcts:{key} must be" in str(refused.value)
    name, _, value = text.partition("=")
    with pytest.raises(BotSpecError) as typed:  # made from values, the same refusal
        SearchOptions(**{name: value})  # type: ignore[arg-type]
    assert typed.value.code == code and typed.value.params == refused.value.params


@pytest.mark.parametrize(("text", "code"), [("scale=0", "bot.option_scale"), ("prune=-1", "bot.option_prune"),
                                            ("prune=some", "bot.option_prune"), ("prune=1.5", "bot.option_prune")])
def test_scale_and_prune_refusals_name_their_option(text: str, code: str) -> None:
    with pytest.raises(BotSpecError) as refused:
        SearchOptions.from_text(text)
    assert refused.value.code == code and refused.value.rule == "B4"
    assert f"ismcts:{text.partition('=')[0]} must be" in str(refused.value)


def test_the_specification_refusals() -> None:
    with pytest.raises(BotSpecError) as unknown:
        SearchOptions.from_text("ismcts:depth=3")
    assert (unknown.value.code, unknown.value.rule, unknown.value.params["name"]) == ("bot.option_unknown", "B3",
                                                                                       "depth")
    assert unknown.value.params["options"].startswith("iterations, time, c, horizon")
    with pytest.raises(BotSpecError) as pair:
        SearchOptions.from_text("ismcts:iterations=5:fast")
    assert (pair.value.code, pair.value.rule, pair.value.params["part"]) == ("bot.option_pair", "B1", "fast")
    with pytest.raises(BotSpecError) as other:
        SearchOptions.from_text("heuristic:blunder=0.1")
    assert (other.value.code, other.value.rule) == ("bot.unknown", "B2")


def test_options_are_frozen() -> None:
    with pytest.raises(AttributeError):
        SearchOptions().c = 1.0  # type: ignore[misc]


def test_each_game_resolves_auto_its_own_way() -> None:
    three = SearchOptions().resolve(dreizehn.load_game("three-thirteen", 2))
    assert (three.root, three.prune, three.infer, three.tree, three.cutoff) == ("paired", 1, False, True, 4)
    knizia = SearchOptions().resolve(dreizehn.load_game("knizia13", 4))
    assert (knizia.root, knizia.prune, knizia.cutoff) == ("ucb", 0, 0)  # 13 values no stage cut off early
    assert knizia.iterations > 0 and knizia.scale > 0
    rollouts = SearchOptions(playout="heuristic", root="paired", prune=3, iterations=7, scale=2)
    resolved = rollouts.resolve(dreizehn.load_game("holzwurm", 3))
    assert (resolved.tree, resolved.root, resolved.prune, resolved.iterations, resolved.scale) == (False, "paired", 3,
                                                                                                  7, 2.0)
    assert SearchOptions(playout="heuristic", tree="on").resolve(dreizehn.load_game("holzwurm", 3)).tree


def test_the_bot_holds_its_options_as_the_value() -> None:
    game = dreizehn.load_game("holzwurm", 3)
    options = SearchOptions(iterations=50, c=0.5, horizon="game")
    bot = make_bot(options.to_text(), game)
    assert isinstance(bot, IsmctsBot)
    assert bot.asked == options and bot.settings == options.resolve(game)
    assert bot.spec == "ismcts:iterations=50:c=0.5:horizon=game"
    assert make_bot("expert", game).spec == make_bot(make_bot("expert", game).spec, game).spec  # levels still read
