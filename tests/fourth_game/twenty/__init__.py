"""Twenty, a toy game that exists only in the tests: the fourth game of docs/adding-a-game.md, in a folder of its own.

Everything the package knows of it is here: its rules and words (:mod:`.game`), its catalogues (``locale/``) and its
heuristic (:mod:`.heuristic`). The tests register it through the entry point ``dreizehn.games`` and play it through
every interface; it touches no file outside this folder.
"""

from twenty.game import Twenty as Twenty
