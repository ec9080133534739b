"""Live tables: each table being played in this process is a :class:`Room` holding a :class:`dreizehn.play.table.Table`
rebuilt from the database, its connections, its bots and its timers. The :class:`Hub` keeps the rooms.

Every change of a table goes one way, under the room's lock: the engine checks and applies the action, the database
stores it (the unique (table, sequence) key settles races with other processes), and only then is anyone told:
each connection gets its own update, filtered for its seat and said in its language.

A room is made of parts, one concern each, every part a subclass of the one before: :mod:`.base` (what they share),
:mod:`.telling` (the messages), :mod:`.presence` (who is connected, here and elsewhere), :mod:`.acting` (acting and
storing), :mod:`.bots` (bots and clocks), :mod:`.room` (hints, names, rematches, idleness); :mod:`.hub` keeps them.
"""

from dreizehn.server.refusals import ServerError
from dreizehn.server.rooms.base import Conn, build_table, seat_names
from dreizehn.server.rooms.hub import Hub
from dreizehn.server.rooms.room import Room
from dreizehn.server.rooms.telling import Said, said_event

__all__ = ["Conn", "Hub", "Room", "Said", "ServerError", "build_table", "said_event", "seat_names"]
