"""Words: everything a person reads, in English, German and Dutch, from gettext catalogues.

The catalogues (``.po`` files read with Babel) map keys to templates: ``words/locale/<lang>/dreizehn.po`` holds what
every game shares, each interface has its own (``tui.po``, ``web.po``: its buttons, titles and prompts), and each
game has its own domain named by its id, in its own folder (``games/knizia13/locale/<lang>.po``), which the registry
adds here (:func:`add_catalogues`) when the game registers, so a game's words live with the game. This module is a
leaf: it imports nothing else of the package, and people's choice of a language is checked by
:func:`dreizehn.core.language.pick_language`. A
template is Python format text over named parameters (``"{player} draws a card"``); a key with plural forms picks
its form by the parameter ``n``. Everything the package says is data until a :class:`Words`
renders it: events (:mod:`dreizehn.core.events`), errors (a code, the rule and parameters), scoring explanations.

>>> words("de")("knizia13.stage", n=2)
'Durchgänge'
>>> words("nl")("lang.name")
'Nederlands'
>>> words("en")("game.over", n=2, names="Anna and Ben")
'The game is over: Anna and Ben share the win.'
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.pofile import read_po

LANGUAGES = ("en", "de", "nl")
"""The languages of the package, English first (the source of every template)."""
SHARED = "dreizehn"
"""The domain of the words every game shares."""
INTERFACES = ("tui", "web")
"""The domains of the interfaces' own words (buttons, titles, prompts): keys start with the domain and a dot."""
LOCALE_DIR = Path(__file__).parent / "locale"
_PLAIN = frozenset((str, int, float, bool, type(None)))
"""Parameter types that are said as they are."""


@dataclass(frozen=True)
class Word:
    """A parameter that is itself a catalogue key: it is said in the receiver's language (a colour, a target)."""

    key: str
    n: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"word": self.key, **({"n": self.n} if self.n is not None else {})}


_MEMO = frozenset((int, bool, type(None), Word))
"""Parameter types whose sentences a :class:`Words` remembers (text is left out: sentences with players' names are
many, and seldom said twice)."""
MEMO_LIMIT = 20_000
"""Sentences a :class:`Words` remembers before it starts again."""


_GAME_FOLDERS: dict[str, Path] = {}
"""A game's domain (its id) -> the folder of its catalogues (``<lang>.po``), as the registry adds them."""
_MERGED: dict[str, dict[str, tuple[str, ...]]] = {}
"""Per language, every domain's templates merged; updated in place when a game's catalogues are added, so that a
:class:`Words` made before sees them too."""
_generation = 0
"""Bumped whenever catalogues are added: a :class:`Words` forgets the sentences it remembered from before."""
_finders: list[Callable[[], object]] = []
"""What to call before the catalogues are first read: the registry, which loads the games (they add theirs)."""
_lock = threading.RLock()
"""Held while the games are found and while a language's templates are merged: a server's threads that speak first
at the same moment each wait for the whole catalogue (re-entrant: finding the games adds their catalogues)."""


def find_catalogues_with(finder: Callable[[], object]) -> None:
    """Have ``finder`` called once, before any catalogue is read: the registry hands the words its loading of the
    games here, so that every game's words are there whoever speaks first, and the words import nothing."""
    _finders.append(finder)


def _find() -> None:
    with _lock:
        while _finders:
            _finders.pop(0)()


def add_catalogues(domain: str, folder: Path) -> None:
    """Add a game's catalogues: ``folder/<lang>.po`` for each language, under the domain ``domain`` (the game's id,
    the first part of each of its keys). The registry calls this for every game it registers."""
    global _generation
    with _lock:
        if _GAME_FOLDERS.get(domain) == folder:
            return
        _GAME_FOLDERS[domain] = folder
        _generation += 1
        for lang, merged in _MERGED.items():
            merged.update(catalogue(lang, domain))


def domains() -> tuple[str, ...]:
    """The catalogue domains: the shared one, one per interface and one per game."""
    _find()
    return (SHARED, *INTERFACES, *_GAME_FOLDERS)


def catalogue_path(lang: str, domain: str) -> Path:
    """The file of one language's catalogue of ``domain``."""
    folder = _GAME_FOLDERS.get(domain)
    return folder / f"{lang}.po" if folder is not None else LOCALE_DIR / lang / f"{domain}.po"


def catalogue(lang: str, domain: str) -> dict[str, tuple[str, ...]]:
    """The templates of one catalogue file: key -> its forms (one, or one per plural form)."""
    _find()
    return _read(catalogue_path(lang, domain), lang, domain)


@functools.cache
def _read(path: Path, lang: str, domain: str) -> dict[str, tuple[str, ...]]:
    if not path.exists():
        return {}
    with path.open("rb") as handle:
        parsed = read_po(handle, locale=lang, domain=domain)
    out: dict[str, tuple[str, ...]] = {}
    for message in parsed:
        if not message.id:
            continue
        key = message.id[0] if isinstance(message.id, tuple | list) else message.id
        forms = tuple(message.string) if isinstance(message.string, tuple | list) else (message.string,)
        if all(forms):
            out[str(key)] = tuple(str(f) for f in forms)
    return out


def _merged(lang: str) -> dict[str, tuple[str, ...]]:
    with _lock:  # published only once whole
        merged = _MERGED.get(lang)
        if merged is None:
            merged = {}
            for domain in domains():
                merged.update(catalogue(lang, domain))
            _MERGED[lang] = merged
        return merged


class UnknownLanguage(LookupError):
    """A :class:`Words` asked for in a language the package does not speak: a caller's mistake (people's choices
    are checked first by :func:`dreizehn.core.language.pick_language`, which refuses citing C7)."""


class Words:
    """The words of one language: ``words(key, n=None, **params)`` renders a template."""

    def __init__(self, lang: str) -> None:
        if lang not in LANGUAGES:
            raise UnknownLanguage(lang)
        self.lang = lang
        self._locale = Locale.parse(lang)
        self._templates = _merged(lang)
        self._english = _merged("en")
        self._memo: dict[tuple[Any, ...], str] = {}
        self._generation = _generation

    def has(self, key: str) -> bool:
        """Whether the catalogue (of this language or English) has ``key``."""
        return key in self._templates or key in self._english

    def template(self, key: str, n: int | None = None) -> str:
        """The template of ``key`` (its plural form for ``n``); English where this language lacks it, the key
        itself where no catalogue has it."""
        forms = self._templates.get(key) or self._english.get(key)
        if not forms:
            return key
        if len(forms) == 1 or n is None:
            return forms[0] if n is None or len(forms) == 1 else forms[-1]
        return forms[0] if self._locale.plural_form(abs(n)) == "one" else forms[min(1, len(forms) - 1)]

    def __call__(self, key: str, /, n: int | None = None, **params: Any) -> str:
        """The template of ``key`` filled with ``params`` (and ``n``); a :class:`Word` parameter is said too.

        What was said with parameters that are numbers or words (cards, colours, counts: no names) is remembered: a
        server says the same cards and moves for every receiver of every action."""
        memo_key: tuple[Any, ...] | None = None
        if self._generation != _generation:
            self._memo.clear()
            self._generation = _generation
        if all(type(v) in _MEMO for v in params.values()):
            memo_key = (key, n, *params, *map(type, params.values()), *params.values())
            found = self._memo.get(memo_key)
            if found is not None:
                return found
        text = self._fill(key, n, params)
        if memo_key is not None:
            if len(self._memo) >= MEMO_LIMIT:
                self._memo.clear()
            self._memo[memo_key] = text
        return text

    def _fill(self, key: str, n: int | None, params: dict[str, Any]) -> str:
        say = self.say
        values = {name: value if type(value) in _PLAIN else say(value) for name, value in params.items()}
        if n is not None:
            values["n"] = n
        template = self.template(key, n)
        try:
            return template.format_map(values)
        except (KeyError, IndexError, ValueError):
            return template

    def say(self, value: Any) -> Any:
        """A parameter as words: a :class:`Word` in this language, an error (data with a ``code``, a ``rule`` and
        ``params``) rendered, a list joined; others as they are."""
        if isinstance(value, Word):
            return self(value.key, n=value.n)
        if isinstance(value, ValueError) and hasattr(value, "code") and hasattr(value, "params"):
            return self.error(value)
        if isinstance(value, list | tuple) and all(isinstance(v, Word) for v in value):
            return self.join([self(v.key, n=v.n) for v in value])
        return value

    def join(self, items: Sequence[str]) -> str:
        """``a, b and c`` in this language."""
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        return self("list.and", head=", ".join(items[:-1]), last=items[-1])

    def error(self, err: Any) -> str:
        """An error of the package in this language, with its rule: ``… (K10)``."""
        text = self(err.code, **err.params)
        return self("error.with_rule", message=text, rule=err.rule) if err.rule else text

    def told(self, err: Any, names: Sequence[str] = ()) -> str:
        """An error as a person at a table reads it: a sentence in this language without the rule, seats said by
        their players' ``names``. A code with a sentence of its own for people (:func:`person_key`: ``It is
        Anna's turn.``) is said by it, its seat parameters (:data:`SEAT_PARAMS`) as names; another by its own
        sentence. Either is begun with a capital and ended with a full stop.

        >>> from dreizehn.core.errors import IllegalActionError
        >>> words("de").told(IllegalActionError("table.not_your_turn", rule="H7", current=0, seat=1), ["Anna", "Ben"])
        'Anna ist am Zug.'
        """
        key = person_key(err.code)
        if self.has(key):
            params: dict[str, Any] = {
                name: self._seat(value, names) if name in SEAT_PARAMS and type(value) is int else value
                for name, value in err.params.items()}
            text = str(self(key, **params)).strip()
        else:
            text = str(self(err.code, **err.params)).strip()
        if not text:
            return text
        text = text[0].upper() + text[1:]
        return text if text[-1] in ".!?" else text + "."

    def _seat(self, seat: int, names: Sequence[str]) -> str:
        return names[seat] if 0 <= seat < len(names) else self("seat.name", seat=seat + 1)

    def names(self, names: Sequence[str], seats: Sequence[int]) -> str:
        """The names of ``seats`` joined: ``Anna and Ben``."""
        return self.join([names[s] if 0 <= s < len(names) else self("seat.name", seat=s + 1) for s in seats])

    def catalogue(self) -> dict[str, Any]:
        """Every template of this language (English where it lacks one), for a client that renders on its own:
        key -> template, or a list of plural forms."""
        merged = {**self._english, **self._templates}
        return {key: forms[0] if len(forms) == 1 else list(forms) for key, forms in sorted(merged.items())}


SEAT_PARAMS = frozenset(("seat", "current", "turn"))
"""The parameters of an error that are seats (counted from 0): a person reads their players' names instead."""


def person_key(code: str) -> str:
    """The key of an error's sentence for people, where it has one: ``table.not_your_turn`` ->
    ``table.person.not_your_turn`` (in the same domain as the code, which a game's catalogue needs)."""
    domain, _, rest = code.partition(".")
    return f"{domain}.person.{rest}"


@functools.cache
def words(lang: str) -> Words:
    """The :class:`Words` of a language (made once)."""
    return Words(lang)


def known_language(asked: str) -> str | None:
    """The language code of ``asked`` (``"de-DE"`` -> ``"de"``) if the package speaks it, else ``None``."""
    lang = asked.strip().lower().replace("-", "_").split("_")[0]
    return lang if lang in LANGUAGES else None


def locale_language(environ: Mapping[str, str] | None = None) -> str:
    """The language of the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``) if the package speaks it, else English."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        lang = value.split(".")[0].split("_")[0].lower()
        if lang in LANGUAGES:
            return lang
    return "en"
