"""Players that see only views, found by name: ``random``, ``heuristic``, ``ismcts`` (see docs/bots.md).

>>> from dreizehn.bots import bot_names
>>> bot_names()[:3]
('random', 'heuristic', 'ismcts')
"""

from dreizehn.bots.base import Bot, bot_names, make_bot, register_bot

__all__ = ["Bot", "bot_names", "make_bot", "register_bot"]
