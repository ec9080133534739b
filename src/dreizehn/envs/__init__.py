"""Research adapters: the games in OpenSpiel, PettingZoo and Gymnasium (``pip install 'dreizehn[research]'``), and
Stable-Baselines3 (``dreizehn.envs.sb3``, ``pip install 'dreizehn[learn]'``).

The adapters only ever hand out what a seat may know: tensors and strings made from its
:class:`~dreizehn.core.game.View` (:mod:`dreizehn.envs.observations`). Each adapter module imports its library when it
is
imported itself, so ``import dreizehn`` never needs them.
"""
