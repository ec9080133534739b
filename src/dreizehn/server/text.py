"""Text a person sends (names, lines of chat): one rule for every backend and every route (S9). No control character
(NUL, BEL, ESC, CR, LF, tab, DEL, the C1 controls), no invisible formatting character (zero-width spaces and joiners,
the bidirectional overrides and isolates such as U+202E, the byte order mark, soft hyphen), no line or paragraph
separator, no surrogate or private-use code point, and none of the letters that show as nothing (the
Hangul fillers, the Braille blank); blanks run together, and text of blanks alone is no text.

>>> person_text("  Anna   Lena ", "name")
'Anna Lena'
>>> refused_character("Anna\u202eanoB"), refused_character("\u3164"), refused_character("Grüße, 13 ♠")
('\u202e', '\u3164', None)
>>> person_text("   ", "name")
''
"""

from __future__ import annotations

import unicodedata

from dreizehn.server.refusals import ServerError

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
"""Unicode's general categories refused: controls, formatting characters, surrogates, private use, and the line and
paragraph separators (a code point unassigned in this Python's Unicode may be a newer emoji: it passes)."""

SHOWN_AS_NOTHING = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters of other categories that show as nothing: the Hangul fillers and the Braille pattern blank."""


def refused_character(text: str) -> str | None:
    """The first character of ``text`` that a person's text may not hold, or ``None``."""
    for char in text:
        if char in SHOWN_AS_NOTHING or (unicodedata.category(char) in REFUSED_CATEGORIES and char != " "):
            return char
    return None


def person_text(text: str, field: str) -> str:
    """``text`` as a person sent it in ``field`` (``name``, ``text``), its blanks run together; refused
    (``server.control_character``, rule S9, 422) if it holds a character :func:`refused_character` finds."""
    char = refused_character(text)
    if char is not None:
        raise ServerError("server.control_character", rule="S9", field=field, char=f"U+{ord(char):04X}")
    return " ".join(text.split())
