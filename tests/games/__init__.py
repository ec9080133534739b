"""Each built-in game's own tests, one folder a game (``tests/games/<name>/``, the id as a Python name): its rules
(``test_rules.py``, a test per rule and every rulebook example), its words (``test_words.py``), its compiled kernel,
search and heuristic (``test_kernel*.py``, marked ``slow``), and its independent replayer of records
(``replayer.py``, written from the documents alone) with its tests (``test_replay.py``). What covers every game at
once stays shared: ``tests/core`` (the conformance suite, the replayers' refusals), ``tests/words``,
``tests/kernels`` (the differential harness), ``tests/clean_room`` (the replayers' shared driver)."""
