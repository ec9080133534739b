"""Passwords (rule U2): 8 to 200 characters of any kind, not one of the 11,611 most common ones of that length,
hashed with Argon2id (pwdlib), never logged, never kept in clear, checked exactly as typed (no truncation, no change
of case).

A password over :data:`LONGEST` characters is refused before it is hashed (a megabyte of password would otherwise
cost the server a megabyte of hashing). Hashing and checking run off the event loop (:func:`asyncio.to_thread`), and
checking the password of a name nobody has costs what checking a real one costs (a hash made at start is checked),
so a wrong name and a wrong password cannot be told apart by their time.

The cost follows OWASP's password storage cheat sheet's first Argon2id choice (19 MiB of memory, 2 passes, one
lane); an operator may raise it (``DREIZEHN_PASSWORD_MEMORY_KIB``, ``DREIZEHN_PASSWORD_PASSES``), and a stored hash of
another cost is rehashed at the next sign-in.
"""

from __future__ import annotations

import asyncio
import functools
import secrets

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from dreizehn.server.refusals import ServerError

SHORTEST, LONGEST = 8, 200
"""How many characters a password has, at least and at most."""


@functools.cache
def common_passwords() -> frozenset[str]:
    """The passwords people choose most that the length rule lets through: those of at least 8 characters among
    the 30,000 most common in zxcvbn's list (11,611 of them), in small letters."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(word for word in FREQUENCY_LISTS["passwords"] if len(word) >= SHORTEST)


def check_length(password: str, field: str = "password") -> None:
    """Refuse a password of fewer than 8 or more than 200 characters (``account.password_length``, U2) before
    anything else is done with it."""
    if not SHORTEST <= len(password) <= LONGEST:
        raise ServerError("account.password_length", rule="U2", field=field, shortest=SHORTEST, longest=LONGEST)


def check_new(password: str, field: str = "password") -> None:
    """A new password's rules (U2): :func:`check_length`, then not one of the :func:`common_passwords`
    (``account.password_common``), whatever its case."""
    check_length(password, field)
    if password.casefold() in common_passwords():
        raise ServerError("account.password_common", rule="U2", field=field)


class Passwords:
    """Argon2id hashing of ``memory_kib`` KiB and ``passes`` passes, off the event loop."""

    def __init__(self, memory_kib: int = 19456, passes: int = 2) -> None:
        self.hasher = PasswordHash((Argon2Hasher(time_cost=passes, memory_cost=memory_kib, parallelism=1),))
        self.decoy = self.hasher.hash(secrets.token_urlsafe(24))
        """A hash nobody's password matches, checked for a name nobody has (the same time as a real check)."""

    async def hash(self, password: str, field: str = "password") -> str:
        """The hash of a new password, after its rules are checked (:func:`check_new`)."""
        check_new(password, field)
        return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, password: str, stored: str | None) -> tuple[bool, str | None]:
        """Whether ``password`` matches the ``stored`` hash (``None``: a name nobody has, checked against the decoy,
        never matching), and the new hash to store where the stored one is of another cost."""
        if not SHORTEST <= len(password) <= LONGEST:
            return False, None  # no stored password is of this length: nothing to hash
        matched, updated = await asyncio.to_thread(self.hasher.verify_and_update, password, stored or self.decoy)
        return (matched and stored is not None), (updated if stored is not None else None)
