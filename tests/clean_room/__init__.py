"""The clean-room replay of records, shared by the games: the record is documented well enough to replay a game
without this package (docs/record-format.md).

Each game's replayer is ``tests/games/<name>/replayer.py``, written only from ``docs/record-format.md``,
``docs/notation.md``, ``docs/games/<id>.md`` and the rules in ``shared/rules/<id>.md``. What they share is here:
:mod:`clean_room.kit` (the refusal, the shuffles, the checks of options) and :mod:`clean_room.driver` (reading a
record, running its game's replayer, comparing the scores, totals, ``over`` and winners). Neither these two nor the
replayers import ``dreizehn`` or share code with it (``tests/core/test_independent_replay.py`` checks it). Only
:mod:`clean_room.records`, the tests' side, uses the package: to make records from seeded random play."""
