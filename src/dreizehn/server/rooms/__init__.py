"""Live tables: each table being played in this process is a :class:`Room` holding a :class:`dreizehn.play.table.Table`
rebuilt from the database, its connections, its bots and its timers. The :class:`Hub` keeps the rooms.

Every change of a table goes one way, under the room's lock: the engine checks and applies the action, the database
stores it (the unique (table, sequence) key settles races with other processes), and only then is anyone told:
each connection gets its own update, filtered for its seat and said in its language.

A room holds its parts, each an object that owns its own state and is handed what it needs of the others:
:mod:`.state` (the table), :mod:`.presence` (who is connected, here and elsewhere; grace periods and stand-ins),
:mod:`.telling` (the messages), :mod:`.hold` (the wait for a stage's scoring), :mod:`.bots` (bots and the turn
clock), :mod:`.acting` (acting, storing, take-backs), :mod:`.rematch`; :mod:`.room` makes and joins them, and
:mod:`.hub` keeps the rooms.
"""

from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms.conn import Conn
from dreizehn.server.rooms.hub import Hub
from dreizehn.server.rooms.room import Room
from dreizehn.server.rooms.state import build_table, said_names, seat_names, sentence
from dreizehn.server.rooms.telling import Said, said_event

__all__ = ["Conn", "Hub", "Room", "Said", "ServerError", "build_table", "said_event", "said_names", "seat_names",
           "sentence"]
