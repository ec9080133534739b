"""Three Thirteen in words (issue 12, items 4 and 5): every event, action, explanation, view and refusal of
``three-thirteen`` said in English, German and Dutch, in the rulebooks' terms, with every field filled and no drawn
card given away."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from words.kit import NAMES, said

import dreizehn
from dreizehn.core.errors import DreizehnError
from dreizehn.core.events import Event
from dreizehn.games.three_thirteen import (
    OUT,
    ThreeThirteen,
    ThreeThirteenAction,
    ThreeThirteenCard,
    ThreeThirteenState,
    melds,
    say_card,
)
from dreizehn.play.say import say_event
from dreizehn.words import LANGUAGES, catalogue, words

Course = list[tuple[ThreeThirteenState, int, list[Event]]]


def play_game(players: int, seed: int, **options: object) -> Course:
    """A random game to its end (going out whenever it can): each state before an action, the action and its
    events; the final state last with no action."""
    state = dreizehn.new_game("three-thirteen", players=players, seed=seed, **options)
    assert isinstance(state, ThreeThirteenState)
    rng = random.Random(seed)
    course: Course = []
    while not state.is_over:
        legal = state.legal_actions()
        outs = [a for a in legal if a >= OUT]
        action = int(rng.choice(outs) if outs and rng.random() < 0.7 else rng.choice(legal))
        before = state.copy()
        course.append((before, action, state.apply_with_events(action)))
    course.append((state.copy(), -1, []))
    return course


GAMES: list[tuple[int, int, dict[str, object]]] = [
    (2, 1, {"stock_out": "end-round"}),
    (2, 2, {"turn_limit": 60}),
    (3, 3, {"turn_limit": 25, "aces": "low-or-high", "all_wild_melds": "forbidden", "dealer": "random"}),
]


@pytest.fixture(scope="module")
def games() -> list[tuple[int, Course]]:
    return [(players, play_game(players, seed, **options)) for players, seed, options in GAMES]


def test_the_games_meet_every_event(games: list[tuple[int, Course]]) -> None:
    keys = {event.key for _, course in games for _, _, events in course for event in events}
    assert set(ThreeThirteen.event_params) <= keys
    assert {"stage.scored", "stage.dealt", "game.over"} <= keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_event_and_action_is_said(lang: str, games: list[tuple[int, Course]]) -> None:
    speaker = words(lang)
    for players, course in games:
        names = NAMES[:players]
        for before, action, events in course:
            game = before.game
            assert isinstance(game, ThreeThirteen)
            seat = before.current_player
            view = before.view(seat) if seat >= 0 else None
            for legal in before.legal_actions():
                said(game.say_action(speaker, legal))
                said(game.say_action(speaker, legal, view=view))
                said(game.say_action(speaker, legal, names[seat]))
            if action >= 0:
                assert names[seat] in said(game.say_action(speaker, action, names[seat], view=view))
            for event in events:
                for receiver in [*range(players), None]:
                    said(say_event(game, speaker, event.for_seat(receiver), names))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_explanations_say_the_scores(lang: str, games: list[tuple[int, Course]]) -> None:
    speaker = words(lang)
    ended: set[str] = set()
    for players, course in games:
        names = NAMES[:players]
        for before, _, events in course:
            for event in events:
                if event.key != "stage.scored":
                    continue
                explanation = event.params["explanation"]
                ended.add(explanation["ended"])
                lines = [said(line) for line in before.game.say_explanation(speaker, explanation, names)]
                assert speaker(f"three-thirteen.ranks.{explanation['wild_rank']}") in lines[1]
                assert len(lines) == 2 + players
                for seat, line in enumerate(lines[2:]):
                    score = event.params["scores"][seat]
                    assert line.startswith(names[seat])
                    found = re.search(r"(\d+) \w+\.$", line)
                    assert found is not None and int(found.group(1)) == score, line
                    hand = explanation["hands"][seat]
                    each = [int(p) for p in re.findall(r"\((\d+)\)", line)]
                    assert each == hand["deadwood_points"] and sum(each) == score, line
                    if hand["out"]:
                        assert score == 0
    assert ended == {"out", "stock", "limit"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_views_are_said(lang: str, games: list[tuple[int, Course]]) -> None:
    speaker = words(lang)
    hand_line = speaker("three-thirteen.view.hand", n=2, cards="").split(",")[0]
    for players, course in games:
        names = NAMES[:players]
        for step, (before, _, _) in enumerate(course):
            if step % 5 and not before.is_over:
                continue
            game = before.game
            for seat in range(players):
                lines = [said(line) for line in game.say_view(speaker, before.view(seat), names)]
                assert len(lines) >= 3
                if not before.is_over and before.hands[seat]:
                    assert any(line.startswith(hand_line) for line in lines)
            watching = [said(line) for line in game.say_view(speaker, before.spectator_view(), names)]
            assert not any(line.startswith(hand_line) for line in watching)
            assert not any(line.startswith(speaker("three-thirteen.view.best", n=2, melds="", deadwood="")[:6])
                           for line in watching)


def test_a_view_says_the_round_the_melds_laid_and_the_turns_left() -> None:
    state = dreizehn.new_game("three-thirteen", players=3, seed=4, turn_limit=30)
    assert isinstance(state, ThreeThirteenState)
    rng = random.Random(4)
    while not state.out_order:
        legal = state.legal_actions()
        outs = [a for a in legal if a >= OUT]
        state.apply(outs[0] if outs else rng.choice(legal))
    laid = state.out_order[0]
    for lang, wild in (("en", "are wild"), ("de", "sind Joker"), ("nl", "zijn jokers")):
        lines = state.game.say_view(words(lang), state.view(state.current_player), NAMES[:3])
        text = "\n".join(lines)
        assert f"{state.round_no + 1} " in lines[3] and wild in lines[3]
        assert NAMES[laid] in text and any(suit in text for suit in "♣♦♥♠")
    english = "\n".join(state.game.say_view(words("en"), state.view(state.current_player), NAMES[:3]))
    assert f"{NAMES[laid]} went out and laid" in english
    assert f"{state.turns_left} turn" in english


def test_a_drawn_card_is_said_to_its_drawer_only(games: list[tuple[int, Course]]) -> None:
    checked = 0
    for players, course in games:
        names = NAMES[:players]
        for before, _, events in course:
            for event in events:
                if event.key != "three-thirteen.drew":
                    continue
                drawer = int(event.params["seat"])
                card = event.for_seat(drawer).params["card"]
                for lang in LANGUAGES:
                    speaker = words(lang)
                    card_said = say_card(speaker, card)
                    assert card_said in say_event(before.game, speaker, event.for_seat(drawer), names)
                    for other in [*range(players), None]:
                        if other != drawer:
                            sentence = say_event(before.game, speaker, event.for_seat(other), names)
                            assert card_said not in sentence and card not in sentence
                            assert names[drawer] in sentence
                checked += 1
    assert checked > 50


def test_cards_in_three_languages() -> None:
    card = ThreeThirteenCard.parse
    game = dreizehn.load_game("three-thirteen", 2)
    cases = {"7H": ("the 7 of hearts", "Herz 7", "harten 7"), "AS": ("the ace of spades", "Pik Ass", "schoppen aas"),
             "JC": ("the jack of clubs", "Kreuz Bube", "klaveren boer"),
             "QD": ("the queen of diamonds", "Karo Dame", "ruiten vrouw"),
             "KH": ("the king of hearts", "Herz König", "harten heer")}
    for text, forms in cases.items():
        assert tuple(game.say_card(words(lang), card(text)) for lang in LANGUAGES) == forms
    assert [say_card(words(lang), "KH", short=True) for lang in LANGUAGES] == ["K♥", "K♥", "H♥"]
    assert [say_card(words(lang), "JS", short=True) for lang in LANGUAGES] == ["J♠", "B♠", "B♠"]


def test_the_rulebooks_terms() -> None:
    german, dutch = words("de"), words("nl")
    rules_de, rules_nl = german("three-thirteen.rules"), dutch("three-thirteen.rules")
    for term in ("Ziehstapel", "Ablagestapel", "ausgehen", "Satz", "Sätze", "Läufe", "Joker", "Runde", "Geber",
                 "Strafpunkte", "Kombination"):
        assert term in rules_de, term
    for term in ("trekstapel", "aflegstapel", "uitgaan", "groepen", "reeksen", "joker", "ronde", "gever",
                 "strafpunten", "combinatie"):
        assert term in rules_nl, term
    assert rules_de.count("\n\n") >= 3 and rules_nl.count("\n\n") >= 3
    game = ThreeThirteen(2)
    out, take = ThreeThirteenAction.parse("out 7H"), ThreeThirteenAction.parse("take")
    assert game.say_action(german, out) == "Ausgehen und Herz 7 ablegen"
    assert game.say_action(dutch, out, "Anna") == "Anna gaat uit en legt harten 7 af"
    assert "Ablagestapel" in game.say_action(german, take) and "aflegstapel" in game.say_action(dutch, take)
    state = dreizehn.new_game("three-thirteen", players=2, seed=3)
    assert game.say_action(words("en"), take, view=state.view(1)) == "Take the 3 of spades from the discard pile"
    assert german("three-thirteen.stage", n=2) == "Runden" and dutch("three-thirteen.stage", n=1) == "ronde"


def test_the_cards_show_the_rulebooks_letters_and_the_german_wild_cards_are_joker() -> None:
    """Issue 25: a card's face shows its rank in the reader's letters (German Bube, Dame, König, Ass: B, D, K, A;
    Dutch boer, vrouw, heer, aas: B, V, H, A), not J/Q/K everywhere; issue 49: the German words call the wild cards
    "Joker", as card players say (never "Platzhalter", the translated rulebook's word)."""
    game = ThreeThirteen(2)
    cards = [ThreeThirteenCard.parse(c) for c in ("JS", "QS", "KS", "AS", "7S")]
    faces = {lang: [game.card_face(words(lang), card)["value"] for card in cards] for lang in LANGUAGES}
    assert faces == {"en": ["J", "Q", "K", "A", "7"], "de": ["B", "D", "K", "A", "7"], "nl": ["B", "V", "H", "A", "7"]}
    german = catalogue("de", "three-thirteen")
    assert not [key for key, text in german.items() if "Platzhalter" in str(text)]
    assert words("de")("web.tt.wild", ranks="Dreien") == "Dreien sind Joker"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_option_has_words(lang: str) -> None:
    keys = catalogue(lang, "three-thirteen")
    for spec in ThreeThirteen.option_specs:
        base = f"three-thirteen.option.{spec.name}"
        assert base in keys and f"{base}.help" in keys
        for choice in spec.choices:
            assert f"{base}.{choice}" in keys
    for key in ("title", "description", "rules", "stage", "card", "card.short"):
        assert f"three-thirteen.{key}" in keys


def _refusals() -> list[DreizehnError]:
    """One of each refusal of the game module, the meld solver and the options."""
    errors: list[DreizehnError] = []

    def catch(call: Callable[[], object]) -> None:
        with pytest.raises(DreizehnError) as refused:
            call()
        errors.append(refused.value)

    state = dreizehn.new_game("three-thirteen", players=2, seed=3)
    assert isinstance(state, ThreeThirteenState)
    catch(lambda: state.apply("discard 7C"))  # draw first (T6)
    state.apply("take")
    catch(lambda: state.apply("draw"))  # drawn already (T6)
    catch(lambda: state.apply("discard 9D"))  # holds no 9D (T6)
    catch(lambda: state.apply("out 7C"))  # no way out (T8)
    stuck = state.copy()
    stuck.drawn, stuck.stock, stuck.pile = False, [], stuck.pile[-1:]
    catch(lambda: stuck.apply("draw"))  # nothing to reshuffle (T10)
    empty = state.copy()
    empty.drawn, empty.pile = False, []
    catch(lambda: empty.apply("take"))  # the discard pile is empty (T6)
    catch(lambda: dreizehn.load_game("three-thirteen", 8, {"decks": 1}))  # too few decks (T1)
    catch(lambda: dreizehn.load_game("three-thirteen", 8, {"decks": 2}))
    catch(lambda: melds.card_value(52))
    catch(lambda: melds.min_penalty([0, 1, 2], wild_rank=2))
    catch(lambda: melds.arrange([[0, 1], [2, 3]], wild_rank=3))  # type: ignore[list-item]
    catch(lambda: melds.go_out_discards([0, 99], wild_rank=3))
    catch(lambda: melds.is_meld([0, -1, 2], wild_rank=3))
    catch(lambda: melds.min_penalty(["x"], wild_rank=3))  # type: ignore[list-item]
    return errors


def test_refusals_are_data_said_in_every_language() -> None:
    errors = _refusals()
    codes = {err.code for err in errors}
    english = catalogue("en", "three-thirteen")
    assert {code for code in english if code.startswith("three-thirteen.error.")} == codes
    for err in errors:
        assert err.rule and err.rule.startswith("T")
        en, de, nl = (said(words(lang).error(err)) for lang in LANGUAGES)
        assert str(err) == en and en.endswith(f"({err.rule})")
        assert de != en and nl != en and de != nl
        assert de.endswith(f"({err.rule})") and nl.endswith(f"({err.rule})")
        assert err.to_json()["code"] == err.code
    by_code = {err.code: err for err in errors}
    assert str(by_code["three-thirteen.error.not_held"]) == "seat 1 holds no 9D (T6)"
    assert words("de").error(by_code["three-thirteen.error.draw_first"]).startswith("Erst ziehen")
    assert "uitgaat" in words("nl").error(by_code["three-thirteen.error.cannot_go_out"])
    assert str(by_code["three-thirteen.error.wild_rank"]) == "wild rank 2 is not in 3..13 (T3)"
    one_deck = next(err for err in errors if err.code == "three-thirteen.error.decks" and err.params["n"] == 1)
    assert str(one_deck).startswith("1 deck of 52 cards is too few for 8 players")
