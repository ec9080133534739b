"""Ratings per game (issue 47; rules G1–G5, docs/ratings.md): one feature, its own storage (migrations ``0007``,
``0012``, ``0013`` and ``0014``).

:mod:`.model` (openskill's Plackett-Luce, places, the number shown), :mod:`.schema` and :mod:`.store` (ratings,
their history, the games applied, the bot levels), :mod:`.bands` (the boards' counts by rating band and day, for a
reader's place), :mod:`.service` (applying finished rated games exactly once; each game's top 100 kept a while),
:mod:`.calibrate` (the bot levels on the players' scale).
"""
