"""The lobby (issue 46 item 3; rules L1–L6, docs/lobby.md): "Play now" queues a signed-in person for a game, a player
count, real-time or turn-based and rated or not; :mod:`.matcher` finds groups (a pure function), :mod:`.store` keeps
the queue in the database under one lock, :mod:`.service` makes the tables and runs the ready checks."""
