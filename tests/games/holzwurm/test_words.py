"""Der dreizehnte Holzwurm in words (issue 12, items 4 and 5): every event, action, explanation, view and refusal of
``holzwurm`` said in English, German and Dutch, in the rulebook's terms, with every field filled."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from random import Random
from typing import Any

import pytest
from words.kit import NAMES, said

import dreizehn
from dreizehn.core.errors import DreizehnError, IllegalActionError, InvalidActionError
from dreizehn.core.events import Event
from dreizehn.core.registry import load_game
from dreizehn.games import holzwurm
from dreizehn.games.holzwurm import CARD_COLOUR, THIRTEEN, Holzwurm, HolzwurmCard, HolzwurmState, HolzwurmView
from dreizehn.games.holzwurm import heuristic as holzwurm_heuristic
from dreizehn.play.say import say_event
from dreizehn.words import LANGUAGES, Word, catalogue, words

Course = list[tuple[HolzwurmState, list[Event]]]


def play(players: int, seed: int, **options: object) -> Course:
    """A random match to its end: each state (a copy before the action) with the events the action made, and the
    final state."""
    state = dreizehn.new_game("holzwurm", players=players, seed=seed, **options)
    assert isinstance(state, HolzwurmState)
    rng = Random(seed)
    out: Course = []
    while not state.is_over:
        before = state.copy()
        out.append((before, state.apply_with_events(rng.choice(state.legal_actions()))))
    out.append((state.copy(), []))
    return out


GAMES: list[tuple[int, int, dict[str, Any]]] = [
    (2, 1, {"games": 1}), (3, 2, {"games": 1}), (4, 3, {"games": 2}), (6, 4, {"games": 1, "starter": "random"}),
]


@pytest.fixture(scope="module")
def courses() -> list[tuple[int, Course]]:
    return [(players, play(players, seed, **options)) for players, seed, options in GAMES]


def test_the_matches_meet_every_event(courses: list[tuple[int, Course]]) -> None:
    """The matches these tests say hold every kind of event (a card opening a row and one joining a row among
    them)."""
    seen = {event.key if event.key != "holzwurm.played" else f"played.{event.params['new']}"
            for _, course in courses for _, events in course for event in events}
    assert {"played.True", "played.False", "holzwurm.took", "stage.scored", "stage.dealt", "game.over"} <= seen


@pytest.mark.parametrize("lang", LANGUAGES)
def test_explanations_say_the_scores(lang: str, courses: list[tuple[int, Course]]) -> None:
    speaker = words(lang)
    stages = 0
    for players, course in courses:
        names = NAMES[:players]
        for before, events in course:
            for event in events:
                if event.key != "stage.scored":
                    continue
                stages += 1
                explanation = event.params["explanation"]
                scores = list(event.params["scores"])
                assert explanation["points"] == scores
                lines = before.game.say_explanation(speaker, explanation, names)
                assert len(lines) == players
                for seat, line in enumerate(said(line) for line in lines):
                    assert line.startswith(names[seat])
                    assert int(re.findall(r"[-+]?\d+", line)[-1]) == scores[seat], line
    assert stages == 5


def test_the_took_sentence_counts_in_every_language() -> None:
    """The row taken, with the plural of the cards taken and of the fate cards left (H12)."""
    game = Holzwurm(3)
    took = Event("holzwurm.took", {"seat": 0, "card": "G5", "row": 3, "cards": ["G1", "G9", "G7", "G4", "G6", "G5"],
                                   "fate": "N8", "fate_left": 1})
    last = Event("holzwurm.took", {"seat": 1, "card": "R1", "row": 1, "cards": ["R2", "R1"], "fate": "13",
                                   "fate_left": 0})
    names = NAMES[:3]
    assert say_event(game, words("en"), took, names) == (
        "Anna plays the green 5 onto row 3 and takes the row's 6 cards (green 1, green 9, green 7, green 4, green 6 "
        "and green 5) and the top card of the fate row, the grey 8 (1 fate card left).")
    assert say_event(game, words("de"), last, names) == (
        "Ben spielt die rote 1 in Reihe 1 aus und nimmt die 2 Karten der Reihe (rote 2 und rote 1) und die oberste "
        "Karte der Schicksalsreihe, die giftige Dreizehn (die Schicksalsreihe ist leer).")
    assert say_event(game, words("nl"), took, names).endswith(
        "en de bovenste kaart van de noodlotrij, de grijze 8 (nog 1 kaart in de noodlotrij).")
    started = Event("holzwurm.played", {"seat": 2, "card": "N7", "row": 4, "new": True})
    assert say_event(game, words("nl"), started, names) == (
        "Cleo speelt de grijze 7 uit als eerste kaart van een nieuwe rij (rij 4).")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_views_are_said_for_seats_and_spectators(lang: str, courses: list[tuple[int, Course]]) -> None:
    speaker = words(lang)
    for players, course in courses:
        names = NAMES[:players]
        for step, (state, _) in enumerate(course):
            if step % 7 and not state.is_over:
                continue
            game = state.game
            for view in [*(state.view(seat) for seat in range(players)), state.spectator_view()]:
                lines = [said(line) for line in game.say_view(speaker, view, names)]
                assert isinstance(view, HolzwurmView)
                rows = sum(1 for row in view.rows if row is not None)
                lengths = [str(len(row.cards)) for row in view.rows if row is not None]
                row_lines = lines[3:3 + max(rows, 1)]
                for length, line in zip(lengths, row_lines, strict=False):
                    assert length in line
                hand = speaker("holzwurm.view.hand", n=2, points=0, cards="").split("(")[0]
                assert any(line.startswith(hand) for line in lines) == (view.seat >= 0 and bool(view.hand)), lines


def test_a_view_in_english() -> None:
    state = _position(["Y5 N8", "G2", "B4 B6 R1"], ["Y6 Y1 N3", "N2"])
    state.fate = [THIRTEEN, HolzwurmCard.parse("P7"), HolzwurmCard.parse("N10")]
    state.known = [0, 1 << HolzwurmCard.parse("G2"), 0]
    state.turn = 2
    names = ["Anna", "Ben", "Cleo"]
    assert state.game.say_view(words("en"), state.view(0), names)[1:] == [
        "It is Cleo's turn.",
        "Points so far: Anna 0, Ben 0 and Cleo 0.",
        "Row 1 (yellow, 3 cards; whoever plays a card of 3 or less takes it): yellow 6, yellow 1 and grey 3.",
        "Row 2 (open, no colour yet, 1 card; whoever plays a 1 takes it): grey 2.",
        "The fate row holds 3 cards; on top lies the grey 10. From the top: grey 10, purple 7 and the poisonous "
        "thirteen.",
        "Your hand (2 cards, 3 points): yellow 5 and grey 8.",
        "Known to be in Ben's hand: green 2.",
        "Cards in hand: Anna 2, Ben 1 and Cleo 3.",
        f"{state.view(0).removed} cards were removed unseen.",
    ]
    spectator = state.game.say_view(words("de"), state.spectator_view(), names)
    assert spectator[0] == "Partie 1" and "Ben hat sicher auf der Hand: grüne 2." in spectator
    assert not any(line.startswith("Deine Hand") for line in spectator)
    state.fate = [THIRTEEN]
    assert "In de noodlotrij ligt alleen nog de giftige dertien." in state.game.say_view(words("nl"), state.view(1), [])


def test_the_dutch_and_german_words_are_the_rulebooks() -> None:
    """The Dutch rulebook's terms (seed 004): houtwormkaart, rij, noodlotrij, de giftige dertien, pluspunten,
    minpunten, partij; German: Holzwurmkarte, Reihe, Schicksalsreihe, die giftige Dreizehn."""
    nl, de = words("nl"), words("de")
    game = Holzwurm(4)
    rules = nl("holzwurm.rules")
    for term in ("houtwormkaarten", "noodlotrij", "de giftige dertien", "pluspunten", "minpunten", "rij", "aanleggen"):
        assert term in rules, term
    assert game.say_card(nl, THIRTEEN) == "de giftige dertien" and nl("holzwurm.stage", n=3) == "partijen"
    assert game.say_card(nl, HolzwurmCard.parse("P4")) == "paarse 4"
    assert nl("holzwurm.title") == "De dertiende houtworm"
    rules = de("holzwurm.rules")
    for term in ("Holzwurmkarten", "Schicksalsreihe", "die giftige Dreizehn", "Pluspunkte", "Minuspunkte", "Reihe"):
        assert term in rules, term
    assert game.say_card(de, THIRTEEN) == "die giftige Dreizehn" and de("holzwurm.stage", n=1) == "Partie"
    for lang in LANGUAGES:
        speaker = words(lang)
        assert said(speaker("holzwurm.description")) and len(speaker("holzwurm.rules").split("\n\n")) >= 4
        for name in ("games", "starter"):
            said(speaker(f"holzwurm.option.{name}"))
            assert "(H" not in said(speaker(f"holzwurm.option.{name}.help"))  # the rule is the API's data (issue 25)
        said(speaker("holzwurm.option.starter.random"))
    assert words("en")("holzwurm.title") == words("de")("holzwurm.title") == Holzwurm.title


# -- errors as data ----------------------------------------------------------------------------------------------


def _position(hands: list[str], rows: list[str]) -> HolzwurmState:
    """Seat 0 to move with ``hands``, the ``rows`` in slots 1.. ("" for an empty slot)."""
    state = load_game("holzwurm", len(hands), {"games": 1}).new_state(0)
    assert isinstance(state, HolzwurmState)
    state.hands = [sorted(HolzwurmCard.parse(t) for t in hand.split()) for hand in hands]
    state.rows = [tuple(int(HolzwurmCard.parse(t)) for t in row.split()) for row in rows] + [()] * (5 - len(rows))
    state.row_colour = [next((CARD_COLOUR[k] for k in row if CARD_COLOUR[k] < 5), -1) for row in state.rows]
    state._index_rows()
    state.turn = 0
    return state


def refusals() -> list[DreizehnError]:
    """One refusal of each code the module raises."""
    out: list[DreizehnError] = []
    for text in ("13>new", "X5>1", "Y5", "Y5>6"):
        with pytest.raises(InvalidActionError) as info:
            holzwurm.HolzwurmAction.parse(text)
        out.append(info.value)
    cases = [
        (["Y5 G3", "R4"], ["Y1 Y2"], "R4>new"),  # not held (H8)
        (["Y5 G3", "R4"], ["Y1 Y2"], "Y5>2"),  # no row 2 (H8)
        (["N5", "B2"], ["Y1", "R3", "G2", "N4", "B1"], "N5>new"),  # five rows (H9)
        (["R2", "B2"], ["R3", "G2"], "R2>new"),  # the red row lies: no new one (H10)
        (["R9", "B2"], ["R1", "Y3"], "R9>2"),  # the red row lies: not another (H10)
        (["G8", "B2"], ["R1", "Y3"], "G8>2"),  # row 2 is yellow (H10)
    ]
    for hands, rows, text in cases:
        with pytest.raises(IllegalActionError) as refused:
            _position(hands, rows).apply(text)
        out.append(refused.value)
    return out


def test_every_refusal_is_coded_and_said_in_every_language() -> None:
    errors = refusals()
    codes = {err.code for err in errors}
    assert codes == {key for key in catalogue("en", "holzwurm") if key.startswith("holzwurm.error.")}
    for err in errors:
        assert err.rule and re.fullmatch(r"H\d+", err.rule), err.code
        english = said(words("en").error(err))
        assert str(err) == english and english.endswith(f"({err.rule})")
        for lang in ("de", "nl"):
            other = said(words(lang).error(err))
            assert other != english and other.endswith(f"({err.rule})"), (lang, other)
        err.to_json()  # JSON-ready: the colours are words
    by_code = {err.code: err for err in errors}
    colour = by_code["holzwurm.error.other_colour"]
    assert colour.params["colour"] == Word("holzwurm.colour.yellow")
    assert colour.to_json()["params"]["a_card"] == {"word": "holzwurm.a_card.green"}
    assert str(colour) == "row 2 is yellow: a green card may go onto an open row or start a new green row (H10)"
    assert words("de").error(colour) == (
        "Reihe 2 ist gelb: eine grüne Karte darf an eine offene Reihe angelegt werden oder eine neue grüne Reihe "
        "beginnen (H10)")
    assert words("nl").error(by_code["holzwurm.error.thirteen"]) == (
        "de giftige dertien wordt nooit uitgespeeld: ze ligt onderaan in de noodlotrij tot ze genomen wordt (H14)")


@pytest.mark.parametrize("module", [holzwurm, holzwurm_heuristic])
def test_every_raise_in_the_module_is_coded(module: object) -> None:
    """Every error the game's modules make is built from a code of the catalogue (the game's, or the package's for
    what every game refuses alike: an action of a finished game, a number that is no action), never a sentence."""
    path = Path(str(getattr(module, "__file__", "")))
    files = sorted(path.parent.glob("*.py")) if path.name == "__init__.py" else [path]
    source = "".join(file.read_text(encoding="utf-8") for file in files)
    keys = set(catalogue("en", "holzwurm")) | {"action.game_over", "action.not_number"}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.endswith("Error"):
            first = node.args[0] if node.args else None
            assert isinstance(first, ast.Constant) and first.value in keys, ast.unparse(node)
            assert any(k.arg == "rule" for k in node.keywords), ast.unparse(node)
