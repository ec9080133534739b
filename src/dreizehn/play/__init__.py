"""One table being played, for every interface (the terminal game, the server, the research adapters, the command
line): the turn loop (:mod:`.table`), what it tells people in words (:mod:`.say`), hints (:mod:`.hints`), a game's
tutorial (:mod:`.tutorial`) and taking back a move (:mod:`.undo`). Above the games, below the many-games layer
(:mod:`dreizehn.study`) and the interfaces (docs/architecture.md)."""
