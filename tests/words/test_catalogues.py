"""Words in three languages (issue 12 item 4): every catalogue complete, every template well formed, every key the
package uses present."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import dreizehn
from dreizehn.core.language import pick_language
from dreizehn.words import INTERFACES, LANGUAGES, LOCALE_DIR, SHARED, Word, Words, catalogue_path, domains, words

dreizehn.game_ids()  # every game registered: its catalogues are added


def _fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def _read(lang: str, domain: str) -> dict[str, tuple[str, ...]]:
    path = catalogue_path(lang, domain)
    with path.open("rb") as handle:
        catalogue = read_po(handle, locale=lang)
    out: dict[str, tuple[str, ...]] = {}
    for message in catalogue:
        if message.id:
            key = message.id[0] if isinstance(message.id, tuple | list) else message.id
            strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
            out[str(key)] = tuple(str(form or "") for form in strings)
    return out


@pytest.mark.parametrize("domain", domains())
def test_every_language_has_every_key_with_the_same_placeholders(domain: str) -> None:
    english = _read("en", domain)
    assert english, f"the {domain} catalogue is empty"
    for lang in LANGUAGES:
        assert catalogue_path(lang, domain).exists(), f"{lang}/{domain}.po is missing"
        other = _read(lang, domain)
        assert set(other) == set(english), (
            f"{lang}/{domain}.po: missing {sorted(set(english) - set(other))[:8]}, "
            f"extra {sorted(set(other) - set(english))[:8]}"
        )
        for key, forms in english.items():
            theirs = other[key]
            assert len(theirs) == len(forms), f"{lang}: {key!r} has {len(theirs)} forms, English {len(forms)}"
            for form in theirs:
                assert form.strip(), f"{lang}: {key!r} is empty"
                assert _fields(form) <= _fields(" ".join(forms)) | {"n"}, f"{lang}: {key!r} names unknown fields"
            assert _fields(" ".join(theirs)) == _fields(" ".join(forms)), f"{lang}: {key!r}'s fields differ"


@pytest.mark.parametrize("domain", domains())
def test_a_domains_keys_start_with_its_name(domain: str) -> None:
    if domain == SHARED:
        others = (*INTERFACES, *dreizehn.game_ids())
        assert not any(key.startswith(tuple(f"{d}." for d in others)) for key in _read("en", domain))
        return
    assert all(key.startswith(f"{domain}.") for key in _read("en", domain))


def test_language_choice() -> None:
    assert pick_language("de-DE") == "de"
    assert pick_language(None, {"LC_ALL": "nl_NL.UTF-8", "LANG": "de_DE"}) == "nl"
    with pytest.raises(dreizehn.InvalidOptionError) as refused:
        pick_language("fr")
    assert "fr" in str(refused.value)
    assert words("de").error(refused.value).startswith("Es gibt keine Sprache")


def test_the_locale_folder_holds_the_languages_only() -> None:
    assert sorted(p.name for p in Path(LOCALE_DIR).iterdir() if p.is_dir()) == sorted(LANGUAGES)


def test_remembered_sentences_are_the_sentences() -> None:
    """What a language remembers having said is what it says anew: the same key with other parameters, another
    plural form, or parameters equal in value but not in type (``True`` and ``1``) are said afresh; sentences with
    text parameters (names) are not kept."""
    speaker = Words("de")
    for _ in range(2):  # said, then remembered
        assert speaker("score.of", player="Anna", points=1) == words("de")._fill("score.of", None,
                                                                                 {"player": "Anna", "points": 1})
        assert speaker("knizia13.card", colour=Word("knizia13.colour.blue"), value=5) == "die blaue 5"
    assert speaker("score.of", player="Ben", points=2) != speaker("score.of", player="Anna", points=1)
    assert speaker("test.{flag}", flag=True) == "test.True" and speaker("test.{flag}", flag=1) == "test.1"
    kept = len(speaker._memo)
    speaker("score.of", player="Cleo", points=3)
    assert len(speaker._memo) == kept


def test_an_error_is_told_to_people_without_rule_or_seat_numbers() -> None:
    """Issue 25: a refusal for people names players, not seats counted from 0, and leaves the rule to the data."""
    from dreizehn.core.errors import IllegalActionError

    turn = IllegalActionError("table.not_your_turn", rule="H7", current=0, seat=1)
    assert words("en").told(turn, ["Anna", "Ben"]) == "It is Anna's turn."
    assert words("de").told(turn, ["Anna", "Ben"]) == "Anna ist am Zug."
    assert words("nl").told(turn, []) == "Plaats 1 is aan de beurt."  # no names known: the seat counted from 1
    other = IllegalActionError("action.game_over", rule="A3")
    assert words("en").told(other) == "The game is over: no more actions."
    assert "(" not in words("de").told(other)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_and_the_options_are_told_to_people_without_rule_ids_or_seeds(lang: str) -> None:
    """Issue 25: a game's description, rules summary and options' help are for people: no rule ids (H7, K12, T1…:
    the API gives an option's rule apart, in its data) and no "seed" (German and Dutch read "Seed" untranslated)."""
    w = words(lang)
    for game_id in dreizehn.game_ids():
        cls = dreizehn.game_class(game_id)
        keys = [f"{game_id}.description", f"{game_id}.rules",
                *(f"{game_id}.option.{spec.name}.help" for spec in cls.option_specs)]
        for key in keys:
            text = w(key)
            assert not re.search(r"\b[A-Z]\d+[a-z]?\b", text), (key, text)
            assert "seed" not in text.lower(), (key, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_level_is_named_in_the_browser_and_the_terminal(lang: str) -> None:
    """The level pickers show each level's word (``master`` too), in both interfaces' domains."""
    from dreizehn.bots.levels import LEVEL_NAMES

    for domain in ("web", "tui"):
        named = _read(lang, domain)
        assert [level for level in LEVEL_NAMES if not any(named.get(f"{domain}.level.{level}", ()))] == []


@pytest.mark.parametrize(("lang", "wrong"), [("de", "Wiederholung"), ("nl", "herhaling")])
def test_a_finished_game_is_replayed_in_card_players_words(lang: str, wrong: str) -> None:
    """Issue 49 item 7: a game played through again is "nachspielen" (German) and "naspelen" (Dutch), not a
    television's "Wiederholung" or "herhaling"."""
    said: list[str] = []
    for domain in domains():
        with catalogue_path(lang, domain).open("rb") as f:
            said += [str(m.string) for m in read_po(f) if m.id]
    assert not [text for text in said if wrong.lower() in text.lower()]
    assert words(lang)("web.replay") == {"de": "Nachspielen", "nl": "Naspelen"}[lang]
