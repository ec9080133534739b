"""People's choice of a language: the one place that refuses a language the package does not speak (C7)."""

from __future__ import annotations

from collections.abc import Mapping

from dreizehn.core.errors import InvalidOptionError
from dreizehn.words import LANGUAGES, known_language, locale_language


def pick_language(asked: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``asked`` if given, else the locale's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else
    English; a language asked for that the package does not speak is refused (C7).

    >>> pick_language(None, {"LANG": "de_DE.UTF-8"}), pick_language("NL"), pick_language(None, {"LANG": "fr_FR"})
    ('de', 'nl', 'en')
    """
    if asked:
        lang = known_language(asked)
        if lang is None:
            raise InvalidOptionError("words.language", rule="C7", lang=asked, languages=", ".join(LANGUAGES))
        return lang
    return locale_language(environ)
