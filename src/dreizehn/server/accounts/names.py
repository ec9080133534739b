"""A person's user name (rule U1): 3 to 20 characters after Unicode's NFKC normalisation, letters and digits of one
script with ``_`` and ``-``, unique without regard to case or to letters that look alike.

A name is shown as it was typed (after NFKC), and found by its *key*: casefolded, with the Cyrillic and Greek letters
that look like Latin ones read as those (so ``Anna`` and ``АNNA`` in Cyrillic capitals are one name). A name that mixes
scripts (a Cyrillic ``а`` among Latin letters) is refused outright: it is how look-alikes are made.

>>> try:
...     user_name("  Anna ")
... except ServerError as refused:
...     print(refused.code)
account.name_characters
>>> user_name("ＡｎｎａＬｅｎａ"), name_key("AnnaLena"), name_key("ΑΝΝΑ")
('AnnaLena', 'annalena', 'anna')
>>> user_name("Dörte_13"), user_name("Ольга"), user_name("小林-2")
('Dörte_13', 'Ольга', '小林-2')
"""

from __future__ import annotations

import unicodedata

from dreizehn.server.refusals import ServerError

SHORTEST, LONGEST = 3, 20
"""How many characters a name has, at least and at most (after NFKC)."""

CAPITAL_LOOK_ALIKES = str.maketrans({
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X",
    "Ѕ": "S", "І": "I", "Ј": "J", "Ү": "Y", "Һ": "H", "Ӏ": "I",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N", "Ο": "O", "Ρ": "P",
    "Τ": "T", "Υ": "Y", "Χ": "X",
})
"""Cyrillic and Greek capitals that show as a Latin capital, as that capital (read before casefolding, which would
make a Greek ``Ν`` a ``ν``)."""

LOOK_ALIKES = str.maketrans({
    # Cyrillic letters drawn as Latin ones
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y",
    "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ү": "y", "һ": "h", "ӏ": "l",
    # Greek letters drawn as Latin ones
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m", "ν": "v", "ο": "o", "ρ": "p",
    "τ": "t", "υ": "u", "χ": "x", "γ": "y", "ω": "w",
})
"""Small letters of other scripts that show as a Latin letter, as that letter (read after casefolding)."""


def _script(char: str) -> str:
    """The script of a letter or digit by its Unicode name's first word (``LATIN``, ``CYRILLIC``, ``CJK``…);
    ``""`` for the characters every script shares (ASCII digits, ``_``, ``-``)."""
    if char in "_-" or "0" <= char <= "9":
        return ""
    name = unicodedata.name(char, "")
    first = name.split(" ", 1)[0]
    return {"HIRAGANA": "CJK", "KATAKANA": "CJK", "IDEOGRAPHIC": "CJK", "FULLWIDTH": "LATIN"}.get(first, first)


def _allowed(char: str) -> bool:
    return char in "_-" or unicodedata.category(char) in {"Lu", "Ll", "Lt", "Lm", "Lo", "Nd"}


def user_name(raw: str) -> str:
    """``raw`` as a user name (NFKC), or refused: ``account.name_length`` (3–20), ``account.name_characters``
    (only letters, digits, ``_`` and ``-``: no blank, markup or control character), ``account.name_scripts``
    (letters of more than one script), all rule U1, 422."""
    name = unicodedata.normalize("NFKC", raw)
    if not SHORTEST <= len(name) <= LONGEST:
        raise ServerError("account.name_length", rule="U1", shortest=SHORTEST, longest=LONGEST)
    if not all(_allowed(char) for char in name):
        raise ServerError("account.name_characters", rule="U1")
    scripts = {_script(char) for char in name} - {""}
    if len(scripts) > 1:
        raise ServerError("account.name_scripts", rule="U1")
    return name


def name_key(name: str) -> str:
    """What a name is unique by: NFKC, look-alike letters read as Latin (:data:`CAPITAL_LOOK_ALIKES`,
    :data:`LOOK_ALIKES`), casefolded. NUL, which no user name holds and PostgreSQL cannot compare, is read as U+FFFD
    (no name holds that either): a name asked for with it is nobody's, on every database."""
    capitals = unicodedata.normalize("NFKC", name.replace("\x00", "\ufffd")).translate(CAPITAL_LOOK_ALIKES)
    return capitals.casefold().translate(LOOK_ALIKES)
