"""Small value types with a text form: the base of every game's cards and actions.

A :class:`Token` is an ``int`` (its dense index, cheap to store, compare and hash) that prints as its text and whose
``repr`` reads back as code. Each game defines its card and action types by subclassing it with a table of texts; the
instances are made once, so engines hand out existing objects and never allocate on a hot path.

>>> class Coin(Token):
...     __slots__ = ()
>>> Coin._define(("heads", "tails"))
>>> Coin.parse("tails")
Coin.parse('tails')
>>> int(Coin.parse("tails")), str(Coin.of(0))
(1, 'heads')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import ClassVar, Self

from dreizehn.core.errors import InvalidActionError
from dreizehn.words import Word


class Token(int):
    """An ``int`` with a canonical text form; subclasses call :meth:`_define` once with their texts."""

    __slots__ = ()
    _texts: ClassVar[tuple[str, ...]] = ()
    _by_text: ClassVar[dict[str, int]] = {}
    _instances: ClassVar[tuple[Token, ...]] = ()
    _noun: ClassVar[str] = "token"
    _noun_key: ClassVar[str] = ""

    @classmethod
    def _define(cls, texts: Iterable[str], aliases: Mapping[str, str] | None = None, noun: str = "",
                noun_key: str = "") -> None:
        """Define the instances by their texts. ``noun`` names one in English in refusals ("card of 13");
        ``noun_key``, if given, is the catalogue key that names it in every language (``"knizia13.noun.card"``)."""
        cls._texts = tuple(texts)
        cls._instances = tuple(int.__new__(cls, i) for i in range(len(cls._texts)))
        by_text = {text.upper(): i for i, text in enumerate(cls._texts)}
        for alias, canonical in (aliases or {}).items():
            by_text[alias.upper()] = by_text[canonical.upper()]
        cls._by_text = by_text
        if noun:
            cls._noun = noun
        if noun_key:
            cls._noun_key = noun_key

    @classmethod
    def _noun_word(cls) -> Word | str:
        """What one instance is called in a refusal: the catalogue word if the type has one, else the English noun."""
        return Word(cls._noun_key) if cls._noun_key else cls._noun

    @classmethod
    def of(cls, index: int) -> Self:
        """The instance with this index (raises :class:`InvalidActionError` if out of range)."""
        try:
            if 0 <= index < len(cls._instances):
                return cls._instances[index]  # type: ignore[return-value]
        except TypeError:  # not a number at all
            pass
        raise InvalidActionError("token.not_number", rule="A5", index=index, noun=cls._noun_word(),
                                 last=len(cls._instances) - 1)

    @classmethod
    def parse(cls, text: str) -> Self:
        """Parse the text form (case and surrounding spaces do not matter)."""
        key = " ".join(str(text).split()).upper()
        index = cls._by_text.get(key)
        if index is None:
            raise InvalidActionError("token.unknown", rule="A5", text=text, noun=cls._noun_word(),
                                     example=cls._texts[0])
        return cls._instances[index]  # type: ignore[return-value]

    @classmethod
    def all(cls) -> tuple[Self, ...]:
        """Every instance, in index order."""
        return cls._instances  # type: ignore[return-value]

    @property
    def text(self) -> str:
        """The canonical text form."""
        return self._texts[self]

    def __str__(self) -> str:
        return self._texts[self]

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({self._texts[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(self._texts[self], spec)
