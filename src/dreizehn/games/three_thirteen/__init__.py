"""Three Thirteen, game id ``three-thirteen``: everything of the game in one folder.

``rules`` (cards, actions, the view, the game and its state: rules T1–T13), ``melds`` (the exact meld solver),
``words`` (the game in words, with its catalogues in ``locale/``), ``encoder`` (its tensors for research),
``heuristic`` (the rulebook's advice as a bot) and ``terminal`` (its drawing in the terminal game). The names of
``rules`` are this package's.
"""

from dreizehn.games.three_thirteen.game import ThreeThirteen as ThreeThirteen
from dreizehn.games.three_thirteen.rules import *  # noqa: F403
from dreizehn.games.three_thirteen.words import say_card as say_card
from dreizehn.games.three_thirteen.words import say_cards as say_cards
from dreizehn.games.three_thirteen.words import say_hand as say_hand
from dreizehn.games.three_thirteen.words import say_melds as say_melds
from dreizehn.games.three_thirteen.words import say_wild as say_wild
