"""Ratings per game (issue 47; rules G1–G4, docs/ratings.md): one feature, its own storage (migration ``0007``).

:mod:`.model` (openskill's Plackett-Luce, places, the number shown), :mod:`.schema` and :mod:`.store` (ratings,
their history, the games applied), :mod:`.service` (applying finished rated games exactly once).
"""
