"""13 by Reiner Knizia (Amigo 2009), game id ``knizia13``: everything of the game in one folder.

``rules`` (cards, actions, the view, the game and its state: rules K1–K18), ``words`` (the game in words, with its
catalogues in ``locale/``), ``encoder`` (its tensors for research), ``heuristic`` (the rulebook's advice as a bot) and
``terminal`` (its drawing in the terminal game). The names of ``rules`` are this package's.
"""

from dreizehn.games.knizia13.game import Knizia13 as Knizia13
from dreizehn.games.knizia13.rules import *  # noqa: F403
