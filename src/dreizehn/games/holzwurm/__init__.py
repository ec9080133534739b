"""Der dreizehnte Holzwurm by Kramer & Kiesling (Queen Games 1998), game id ``holzwurm``: everything of the game in
one folder.

``rules`` (cards, actions, the view, the game and its state: rules H1–H17), ``words`` (the game in words, with its
catalogues in ``locale/``), ``encoder`` (its tensors for research), ``heuristic`` (the rulebook's advice as a bot) and
``terminal`` (its drawing in the terminal game). The names of ``rules`` are this package's.
"""

from dreizehn.games.holzwurm.game import Holzwurm as Holzwurm
from dreizehn.games.holzwurm.rules import *  # noqa: F403
