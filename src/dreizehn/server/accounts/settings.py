"""A person's settings kept on the server (issue 45 item 4), applied on every device: the pages' language, sound,
reduced motion, and the default level of a new table's bots. Stored in ``accounts.settings`` (JSON); a setting never
set reads as its default.

>>> full_settings({"sound": False, "unknown": 1})
{'language': None, 'sound': False, 'reduced_motion': False, 'bot_level': 'medium'}
"""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, Any] = {"language": None, "sound": True, "reduced_motion": False, "bot_level": "medium"}
"""Every setting and its value where it was never set."""


def full_settings(stored: dict[str, Any]) -> dict[str, Any]:
    """Every setting: the stored value, else its default (a stored key no longer known is left out)."""
    return {key: stored.get(key, default) for key, default in DEFAULTS.items()}
