"""``ismcts``: single-observer information-set Monte-Carlo tree search, generic over the game API.

The algorithm (Cowling, Powley & Whitehouse 2012, "SO-ISMCTS" with availability counts):

* One tree, keyed by what the searching seat can see. Every action of the three games is public, so a node is the
  sequence of actions from the root; a node's children are keyed by action number.
* Each iteration draws a **determinization**: ``game.sample_state(view, rng)``, a complete state uniformly random
  over what the seat cannot see, with its future shuffles drawn from ``rng``. The bot never sees the real state.
* **Selection** descends the tree with that determinization: at a node only the actions legal in it are
  candidates. While one of them has no child yet, one of those is **expanded** (chosen at random); otherwise the
  child maximising ``mean + c * sqrt(ln(availability) / visits)`` is taken, where a child's *availability* counts
  the visits of its parent in which it was legal (not the parent's visits).
* **Root** (``root``): ``ucb`` selects at the root as everywhere else. ``paired`` (Three Thirteen's default) tries
  *every* legal root action on each determinization, each followed by the same stream of random numbers, so that the
  root actions are compared on the same hidden cards and the same luck (common random numbers); each counts as one
  iteration, and the budget is spent in whole determinizations (so it may run over by fewer than the number of
  root actions). Where the luck of the hidden cards dwarfs the difference between two moves, as in a rummy discard,
  this cuts the noise of the comparison. In 2-player Three Thirteen against ``heuristic``, at 300 iterations per
  move, with the greedy playouts below: 20% of 40 games won with ``ucb`` (cutoff 12), 40% with ``paired`` (cutoff
  4); at the default 800 iterations ``paired`` won 47.5% of 60 games, where ``ucb`` with random playouts had won
  35.0% of 100.
* **Playout** up to the horizon: the end of the stage being played at the root (``horizon=stage``, the 13 stage,
  the Three Thirteen round, the Holzwurm game of the match) or of the whole game (``horizon=game``). With
  ``playout=greedy`` (the default) a game whose heuristic module has a greedy ``playout`` plays it
  (:mod:`~dreizehn.bots.advice`; Three Thirteen: go out, take what completes a meld, discard what builds
  least); otherwise random legal actions, taking one of the game's ``eager_actions`` whenever legal (Three
  Thirteen's going out, as :mod:`~dreizehn.bots.random_bot` does, so that random play ends). Eager actions also
  bound the tree: where one is legal, only those are searched.
  A Three Thirteen playout may be cut short (``cutoff``): after that many playout actions, at the next turn boundary,
  the round is scored as if it ended then (each hand at its fewest penalty points,
  :func:`~dreizehn.games.three_thirteen.melds.min_penalty`). A short look ahead scored exactly beat long playouts
  against the heuristic (at 300 iterations, paired: cutoff 4 won 40% of 40 games, 12 won 34%; unpaired, 40 did
  worst).
  With ``playout=heuristic`` every seat plays the game's heuristic (its ``act``, on each seat's view of the
  sampled state), from the root action on, with no tree below the root: each root action is judged by rollouts of
  the heuristic (Tesauro & Galperin's policy improvement by Monte-Carlo rollouts). Three Thirteen's kernel plays
  them in compiled code (:mod:`~dreizehn.games.three_thirteen.kernel_heuristic`), where ``potential=W`` also
  counts a cut-off hand ``W`` points lower per unit of meld potential (pairs and near-runs, as the heuristic weighs
  its discards; 0, the default: its penalty points alone). With ``tree=on`` the tree grows below the root as with
  the other playouts, each leaf played out by the heuristic (``master`` in 13 and Holzwurm, compiled there);
  ``tree=off`` keeps any playout's search flat at the root; ``tree=auto``, the default, is off with
  ``playout=heuristic`` and on otherwise.
  With ``playout=learned-bot`` every seat plays as the ``learned`` bot (:mod:`~dreizehn.bots.learned`: the
  heuristic's advice unless its network rates another action higher by its threshold), as ``playout=heuristic``
  plays the heuristic; only where that network was fitted (the game's player count and options, B4 naming
  ``playout`` elsewhere); Three Thirteen's kernel plays it compiled
  (:func:`~dreizehn.games.three_thirteen.bot_kernel.learned_action`), the other games in Python.
* **Pruning** (``prune=K``): where the game's heuristic ranks the root decision
  (its heuristic's ``rank``: Three Thirteen's discards), only its ``K`` best actions are searched,
  so each gets more of the budget and none the heuristic thinks poor is played; with ``K = 1`` the heuristic's
  action is played without a search. Three Thirteen's default is 1 (elsewhere 0, no pruning): in 2-player games
  against ``heuristic`` on seeds 0-99, searching every discard lost 9.7 points a game to it and won 40.0%, while
  playing the heuristic's discards and searching only the draws came level (0.0 points, 47.5%; 9.7 ± 5.4 points
  a game better on the same seeds), and searching the heuristic's best 3 discards lay between (+4.4 points, 47.0%).
  The search judges a discard by a short greedy playout and the hands' penalty points, which knows less than the
  heuristic's own weighing of penalty, meld potential and feeding.
* **Backup** of a reward *vector*, one value per seat in [0, 1]; a node's statistics are those of the seat that
  moved into it.

The reward (``reward=margin``, the default): let ``p`` be each seat's points over the horizon (the stage's points,
or every stage's from the root's stage on; points banked before are equal in every playout and left out). Seat
``i``'s advantage is ``d = p[i] - mean(p[j], j != i)``, negated where the fewest points win (13, Three Thirteen);
its reward ``1 / (1 + exp(-d / scale))``, ``scale`` being about one standard deviation of ``d`` in a stage of random
play (5 points in 13, 25 in Three Thirteen, 30 in Holzwurm; times the square root of the number of stages the
horizon spans). A margin reward gives random playouts a smoother signal than win/loss, and the logistic keeps it
bounded so one constant ``c`` serves all games. ``reward=win`` scores 1/k for each of the k seats with the best
points over the horizon (the game's real winners for ``horizon=game``), else 0.

The move: the most visited root action, ties by mean reward (with ``root=paired`` every root action is visited
alike, so the best mean decides), then by the lower action number; with ``lead=L`` > 0, the game's heuristic's own
action (its ``act``, ties broken by ``random.Random(0)``) where it was searched, unless the move's mean reward beats
its mean by more than ``L`` (the search overrules the heuristic only where it finds a clear gain). For a fixed ``rng``
seed and iteration budget the search is deterministic (no clock, no set or dict-order dependence).

Budget: ``iterations`` (0, the default: the game's count, :func:`search_default`), or ``time`` in seconds,
which replaces the iteration count (checked after every iteration; at least one iteration). The defaults were chosen
so that a move takes about 0.1-0.2 s on one core of the development machine, the worst well under 0.5 s (measured
over 20 positions of random 4-player games each: 13 0.17 s mean, 0.23 s worst; Holzwurm 0.16 / 0.23; Three
Thirteen 0.07 / 0.20, its discards being the heuristic's; ``benchmarks/bench_ismcts.py``). A seat with one legal
action answers at once. Where the game's kernel searches with the bot's options (its ``search_options``,
:meth:`IsmctsBot._compiled_search`), the same algorithm runs there in compiled code, with other random numbers: every
game's defaults do (13, Holzwurm and Three Thirteen a few milliseconds a move; docs/bots.md).

Options and defaults: ``iterations=0`` (the game's default), ``time`` (none), ``c=0.7``, ``horizon=stage``,
``reward=margin``, ``scale`` (the game's), ``cutoff=4`` (Three Thirteen only; 0: never), ``playout=greedy`` (or
``random``, or ``heuristic``: rollouts of the heuristic), ``tree=auto`` (``on``: a tree below the root, ``off``:
none; ``auto``: none with ``playout=heuristic``), ``potential=0`` (compiled Three Thirteen only),
``value=points`` (or ``learned``, ``learned-large``: a cut-off hand valued by a network, compiled Three Thirteen
only; ``learned-bot``: no playout, each leaf valued by the ``learned`` bot's network at every seat's next decision,
compiled 13 and Holzwurm where that network was fitted, :mod:`~dreizehn.bots.learned_kernel`; ``learned-bot-mix``:
each leaf played out and the searching seat's reward mixed with the network's rating, by the share ``mix=0.5``),
``lead=0``,
``root=auto`` (the game's: ``paired`` in Three Thirteen, ``ucb`` elsewhere), ``prune=auto`` (the game's: 1 in
Three Thirteen, 0, no pruning, elsewhere), ``infer=auto`` (the game's; ``on`` deals each determinization in
proportion to how likely it is given what the seat saw, only where the game's compiled search infers: Three
Thirteen's, :mod:`dreizehn.games.three_thirteen.inference`; ``off`` deals uniformly), ``standing=off`` (``on``: the
margin reward counts the game's totals so far and its logistic narrows to the spread of the stages left, so that it
stands for the chance to win the game; compiled Three Thirteen only,
:func:`dreizehn.games.three_thirteen.search.standing`), ``replay=off`` (``on``: each determinization dealt again,
up to 16 times, until the other seat's hand in it replays that seat's latest turn as the heuristic plays; compiled
Three Thirteen at 2 players, :func:`dreizehn.games.three_thirteen.search.replays`).

>>> import random, dreizehn
>>> from dreizehn.bots.base import make_bot
>>> game = dreizehn.load_game("holzwurm", players=3)
>>> state = game.new_state(seed=5)
>>> bot = make_bot("ismcts:iterations=30", game)
>>> bot.act(state.view(state.current_player), random.Random(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import ClassVar, TypeVar

from dreizehn.bots.advice import Estimate, Heuristic, Policy, Ranking, estimator, heuristic, playout_policy, ranking
from dreizehn.bots.base import Bot, register_bot
from dreizehn.bots.learned import LearnedBot
from dreizehn.bots.learned_kernel import fitted_network
from dreizehn.bots.search_options import GENERAL as GENERAL  # re-exported: dreizehn.bots.ismcts.GENERAL
from dreizehn.bots.search_options import ROLLOUTS, SearchOptions
from dreizehn.bots.search_options import search_default as search_default
from dreizehn.core.errors import BotError, BotSpecError
from dreizehn.core.game import Game, State, View
from dreizehn.core.kernel import load_kernel
from dreizehn.words import Word

CompiledSearch = Callable[[View, int, float, float, int, "float | None"],
                          "tuple[list[tuple[int, int, int, float]], int]"]
"""A kernel's search: view, iterations, c, scale, seed and seconds; the root statistics and the iterations run."""

COMPILED_OPTIONS: Mapping[str, object] = {"root": ("ucb",), "playout": ("random",), "cutoff": (0,), "prune": False}
"""The options a kernel's search implements where its kernel lists none (``search_options``): ``root=ucb``, random
playouts, no cutoff and no pruning (each game's kernel lists its own)."""

A = TypeVar("A", bound=int)


def searched(legal: Sequence[A], eager: frozenset[int]) -> Sequence[A]:
    """The actions searched among ``legal``: the eager ones if any is legal (Three Thirteen's going out), else all."""
    if eager and not eager.isdisjoint(legal):
        return [a for a in legal if a in eager]
    return legal


class _Node:
    """A node of the tree: the statistics of the action that leads into it, from its mover's side."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


_Iterate = Callable[[State, _Node, list[_Node], list[int], Callable[[int], int], Callable[[], float]], None]
"""One iteration of the Python search (:meth:`IsmctsBot._iteration`): state, node, path, movers, random numbers."""


def _select(node: _Node, legal: Sequence[int], *, c: float, randrange: Callable[[int], int]) -> tuple[int, _Node, bool]:
    """The action taken from ``node`` among ``legal``, its child and whether it was just expanded: an untried action
    at random where any is left, else the tried one of the highest upper confidence bound (each tried child counts
    one more time available)."""
    children = node.children
    untried = 0
    best: _Node | None = None
    best_action = -1
    best_value = -1.0
    for action in legal:
        child = children.get(action)
        if child is None:
            untried += 1
            continue
        child.avail += 1
        if not untried:
            value = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
            if value > best_value:
                best_value, best, best_action = value, child, action
    if untried:
        pick = randrange(untried)
        for action in legal:
            if action not in children:
                if not pick:
                    children[action] = _Node()
                    return action, children[action], True
                pick -= 1
    assert best is not None
    return best_action, best, False


def _heuristic_policy(act: Heuristic) -> Policy:
    """The game's heuristic as a playout policy (``playout=heuristic``): it plays the view of the seat to move, its
    ties broken by a generator seeded from the playout's random numbers."""
    tie = random.Random()

    def policy(state: State, random_: Callable[[], float]) -> int:
        tie.seed(int(random_() * 2**53))
        return act(state.view(state.current_player), tie)

    return policy


@dataclass(frozen=True)
class RootStat:
    """One root action after a search: visits, availability and mean reward of the seat to move."""

    action: int
    visits: int
    avail: int
    mean: float


def _lists(options: Mapping[str, object], name: str, value: str) -> bool:
    """Whether a kernel's ``search_options`` take ``value`` for the option ``name`` (all values, or those listed)."""
    values = options.get(name, ())
    return values is True or (isinstance(values, Container) and value in values)


@register_bot
class IsmctsBot(Bot):
    """``ismcts``: single-observer ISMCTS (see the module docstring).

    Options: ``iterations`` (per move; default per game), ``time`` (seconds per move instead of iterations), ``c``
    (UCB exploration, rewards lie in [0, 1]), ``horizon`` (``stage`` or ``game``), ``reward`` (``margin`` or
    ``win``), ``scale`` (points of the margin's logistic; default per game), ``cutoff`` (playout actions before a
    Three Thirteen round is scored by its hands; 0: never; default 4), ``playout`` (``greedy``, ``random`` or
    ``heuristic``), ``tree`` (``auto``, ``on`` or ``off``: whether the tree grows below the root; ``auto``: not with
    ``playout=heuristic``), ``potential`` (meld potential counted in a cut-off hand, compiled Three Thirteen only),
    ``value`` (``points``, ``learned`` or ``learned-large``: how a cut-off hand is valued, the networks in compiled
    Three Thirteen only; ``learned-bot``: each leaf valued by the ``learned`` bot's network, compiled 13 and
    Holzwurm at 4 players; ``learned-bot-mix``: played out as well, the network's rating mixed into the searching
    seat's reward by ``mix``, its share from 0 to 1), ``lead`` (the mean reward by which a move must beat the
    heuristic's own to be played instead; 0: none),
    ``root`` (``auto``, ``ucb`` or ``paired``), ``prune`` (``auto``, or search only the heuristic's best so many
    root actions where it ranks them; 0: all), ``infer`` (``auto``, ``on`` or ``off``: determinizations weighted by
    what the seat saw, where the game's compiled search infers). They are one checked value,
    :class:`~dreizehn.bots.search_options.SearchOptions` (:attr:`asked`), which the game resolves into
    :attr:`settings` (:class:`~dreizehn.bots.search_options.SearchSettings`: no ``auto`` left).
    """

    name: ClassVar[str] = "ismcts"
    option_defaults: ClassVar[Mapping[str, float | int | str | None]] = SearchOptions.defaults()

    def __init__(self, game: Game, **options: object) -> None:
        super().__init__(game, **options)
        self.asked = SearchOptions.from_mapping(self.options)
        """The options as given (:class:`~dreizehn.bots.search_options.SearchOptions`)."""
        self.settings = self.asked.resolve(game)
        """The options as this game's search plays them (every ``auto`` the game's own)."""
        gid = game.id
        self.estimate: Estimate | None = estimator(gid)
        self.eager = game.eager_actions
        if self.settings.playout == "learned-bot":
            fitted_network(game, "learned-bot", key="playout")  # refuses a game or player count it was not fitted at
        self.policy: Policy | None = self._policy()
        self.own: Heuristic | None = heuristic(gid)
        self.ranking: Ranking | None = ranking(gid)
        self.last_stats: tuple[RootStat, ...] = ()
        """The root statistics of the latest search, in action order."""
        self.last_iterations = 0
        """The number of iterations of the latest search."""
        self._kernel: object | None = None
        if self.settings.infer and not self._infers():
            raise BotSpecError("bot.option_infer", rule="B4", game=gid)
        if self.settings.value.startswith("learned-bot"):
            if not self._reads_network():
                raise BotSpecError("bot.option_value_network", rule="B4", bot="ismcts", key="value",
                                   value=self.settings.value, game=Word(f"{gid}.title"))
            fitted_network(game, self.settings.value)  # refuses a player count or options it was not fitted at
        if self.settings.value != "points" and self._compiled_search(frozenset()) is None:
            raise BotSpecError("bot.option_value", rule="B4", key="value", value=self.settings.value, game=gid)
        if self.settings.standing and self._compiled_search(frozenset()) is None:
            raise BotSpecError("bot.option_standing", rule="B4", game=gid)
        if self.settings.replay and self._compiled_search(frozenset()) is None:
            raise BotSpecError("bot.option_replay", rule="B4", game=gid)

    def _policy(self) -> Policy | None:
        """The playout policy of ``playout``: the game's greedy playout, its heuristic, or none (random actions)."""
        chosen = self.settings.playout
        if chosen == "greedy":
            return playout_policy(self.game.id)
        if chosen == "learned-bot":
            return _heuristic_policy(LearnedBot(self.game).act)
        act = heuristic(self.game.id) if chosen == "heuristic" else None
        if chosen == "heuristic" and act is None:  # pragma: no cover - every game has a heuristic
            raise BotSpecError("bot.option_choice", rule="B4", bot=self.name, key="playout",
                               choices="greedy, random", value=chosen)
        return None if act is None else _heuristic_policy(act)

    # -- the search -----------------------------------------------------------------------------------------------

    def act(self, view: View, rng: random.Random) -> int:
        legal = view.legal_actions
        if view.seat != view.current_player or not legal:
            raise BotError("bot.not_to_move", rule="B5", seat=view.seat)
        kept = self._kept(view)
        candidates = sorted(kept) if kept else searched(legal, self.eager)
        if len(candidates) == 1:
            only = int(candidates[0])
            self.last_stats = (RootStat(only, 0, 0, 0.0),)
            self.last_iterations = 0
            return only
        stats = self._search(view, rng, kept)
        best = max(stats, key=lambda s: (s.visits, s.mean, -s.action))
        if self.settings.lead and self.own is not None:  # the heuristic's own, unless another beats it by ``lead``
            own = self.own(view, random.Random(0))
            mine = next((s for s in stats if s.action == own), None)
            if mine is not None and best.mean <= mine.mean + self.settings.lead:
                return mine.action
        return best.action

    def search(self, view: View, rng: random.Random) -> tuple[RootStat, ...]:
        """Search from ``view`` (whose seat is to move); return the root statistics (also kept in
        :attr:`last_stats`)."""
        return self._search(view, rng, self._kept(view))

    def _search(self, view: View, rng: random.Random, keep: frozenset[int]) -> tuple[RootStat, ...]:
        """:meth:`search`, its root narrowed to ``keep`` where not empty (:meth:`_kept`): in the game's compiled
        kernel where it searches with these options (:meth:`_compiled_search`), else here: each iteration samples a
        world from ``view`` and runs :meth:`_iteration`'s function on it (with ``root=paired``, once for every root
        action on the same world, each followed by the same stream of random numbers)."""
        compiled = self._compiled_search(keep)
        if compiled is not None:
            settings = self.settings
            stats, done = compiled(view, settings.iterations, settings.c, settings.scale, rng.getrandbits(64),
                                   settings.time)
            self.last_iterations = done
            self.last_stats = tuple(RootStat(a, visits, avail, mean) for a, visits, avail, mean in stats)
            return self.last_stats
        sample = self.game.sample_state
        root = _Node()
        iterate = self._iteration(view.stage, root, keep)
        deadline = None if self.settings.time is None else time.perf_counter() + self.settings.time
        seat = view.seat
        done = 0
        while (done < self.settings.iterations) if deadline is None else (not done or time.perf_counter() < deadline):
            state = sample(view, rng)
            if self.settings.root != "paired":
                done += 1
                iterate(state, root, [], [], rng.randrange, rng.random)
                continue
            legal = searched(state.legal_actions(), self.eager)
            if keep:
                legal = [a for a in legal if a in keep]
            stream = rng.getrandbits(64)
            last = len(legal) - 1
            for i, action in enumerate(legal):
                done += 1
                branch = state if i == last else state.copy()
                child = root.children.get(action)
                if child is None:
                    child = root.children[action] = _Node()
                else:
                    child.avail += 1
                branch.apply(action)
                shared = random.Random(stream)
                iterate(branch, child, [child], [seat], shared.randrange, shared.random)
        self.last_iterations = done
        self.last_stats = tuple(
            RootStat(int(a), n.visits, n.avail, n.total / n.visits if n.visits else 0.0)
            for a, n in sorted(root.children.items())
        )
        return self.last_stats

    def _iteration(self, root_stage: int, root: _Node, keep: frozenset[int]) -> _Iterate:
        """The function of one iteration of the Python search below ``root`` (in the stage ``root_stage``): from a
        state at ``node``, reached by ``path`` (the nodes below the root) whose actions ``movers`` chose, it selects
        and expands (:func:`_select`; none below the root without :attr:`tree`), plays out
        (:meth:`_playout`) and backs up each node's reward from its mover's side."""
        whole_game = self.settings.horizon == "game"
        stop_at_root = not self.settings.tree
        eager, score, players = self.eager, self._score, self.game.players
        select = partial(_select, c=self.settings.c)
        playout = self._playout

        def iterate(state: State, node: _Node, path: list[_Node], movers: list[int],
                    randrange: Callable[[int], int], random_: Callable[[], float]) -> None:
            while state.turn >= 0 and (whole_game or state.stage == root_stage) and not (stop_at_root and path):
                legal = searched(state.legal_actions(), eager)
                if keep and node is root:
                    legal = [a for a in legal if a in keep]
                mover = state.turn
                action, child, expanded = select(node, legal, randrange=randrange)
                state.apply(action)
                path.append(child)
                movers.append(mover)
                if expanded:
                    break
                node = child
            points = playout(state, root_stage, random_)
            rewards = score(state, root_stage, points, players)
            root.visits += 1
            for node, mover in zip(path, movers, strict=True):
                node.visits += 1
                node.total += rewards[mover]

        return iterate

    def _playout(self, state: State, root_stage: int, random_: Callable[[], float]) -> Sequence[int] | None:
        """Plays ``state`` on to the end of its stage (of the game with ``horizon=game``) by the playout policy, or
        uniformly at random; with a ``cutoff``, stops after that many actions where :attr:`estimate` values the
        position, and answers its points (else ``None``)."""
        whole_game = self.settings.horizon == "game"
        estimate, policy, eager = self.estimate, self.policy, self.eager
        cutoff = self.settings.cutoff if estimate is not None else 0
        steps = 0
        while state.turn >= 0 and (whole_game or state.stage == root_stage):
            if cutoff and steps >= cutoff:
                assert estimate is not None
                points = estimate(state)
                if points is not None:
                    return points
            if policy is not None:
                state.apply_legal(policy(state, random_))
            else:
                legal = searched(state.legal_actions(), eager)
                state.apply_legal(legal[int(random_() * len(legal))])
            steps += 1
        return None

    def _compiled_search(self, keep: frozenset[int]) -> CompiledSearch | None:
        """The game kernel's search (docs/vector.md), where the game has one and these options are what it does:
        always ``horizon=stage`` and ``reward=margin``; the ``root``, ``playout`` and ``cutoff`` values its kernel's
        ``search_options`` lists, and a root narrowed to ``keep`` where they say ``prune`` (the search then takes
        ``keep``, ``cutoff`` and ``playout`` as keywords); a tree below the root or none as :attr:`tree` says where
        they say ``tree`` (the search takes it as a keyword), else only as ``tree=auto`` does. A kernel without
        ``search_options`` searches as :data:`COMPILED_OPTIONS` says."""
        if not self.game.kernel or self.settings.horizon != "stage" or self.settings.reward != "margin":
            return None
        found: Callable[..., tuple[list[tuple[int, int, int, float]], int]] | None = getattr(
            self._loaded_kernel(), "search", None)
        supported = self._search_options()
        options = COMPILED_OPTIONS if supported is None else supported
        playout = self.settings.playout if self.policy is not None else "random"
        roots, playouts, cutoffs = options["root"], options["playout"], options["cutoff"]
        assert isinstance(roots, Container) and isinstance(playouts, Container) and isinstance(cutoffs, Container)
        settings = self.settings
        if found is None or settings.root not in roots or playout not in playouts or settings.cutoff not in cutoffs:
            return None
        if (keep and not options["prune"]) or (self.settings.potential and not options.get("potential")):
            return None
        if self.settings.value != "points" and not _lists(options, "value", self.settings.value):
            return None
        if self.settings.standing and not options.get("standing"):
            return None
        if self.settings.replay and not options.get("replay"):
            return None
        if not options.get("tree") and self.settings.tree != (playout not in ROLLOUTS):
            return None
        if supported is None:
            return found
        extra: dict[str, object] = {"tree": self.settings.tree} if options.get("tree") else {}
        if self.settings.infer:
            extra["infer"] = True
        if self.settings.potential:
            extra["potential"] = self.settings.potential
        if self.settings.value != "points":
            extra["value"] = self.settings.value
        if self.settings.value == "learned-bot-mix":  # a kernel that mixes the network takes its share
            extra["mix"] = self.settings.mix
        if self.settings.standing:
            extra["standing"] = True
        if self.settings.replay:
            extra["replay"] = True
        if extra:
            return partial(found, keep=keep, cutoff=self.settings.cutoff, playout=playout, **extra)
        return partial(found, keep=keep, cutoff=self.settings.cutoff, playout=playout)

    def _loaded_kernel(self) -> object:
        """The game's kernel (the game has one), loaded once per bot, not once a move."""
        if self._kernel is None:
            self._kernel = load_kernel(self.game)
        return self._kernel

    def _search_options(self) -> Mapping[str, object] | None:
        """What the game kernel's search lists that it does (its ``search_options``), or ``None``: the game has no
        kernel, or its kernel lists none."""
        return getattr(self._loaded_kernel(), "search_options", None) if self.game.kernel else None

    def _reads_network(self) -> bool:
        """Whether the game's compiled search can value its leaves by the ``learned`` bot's network (its
        ``search_options`` list ``learned-bot``: 13's and Holzwurm's)."""
        return _lists(self._search_options() or {}, "value", "learned-bot")

    def _infers(self) -> bool:
        """Whether this bot's search runs in the game's kernel (:meth:`_compiled_search`) and that search weighs its
        determinizations by inference (its ``search_options`` say ``infer``)."""
        return self._compiled_search(frozenset()) is not None and bool((self._search_options() or {}).get("infer"))

    def _kept(self, view: View) -> frozenset[int]:
        """The root actions left by ``prune``: the heuristic's best ``prune`` where it ranks the decision and there
        are more, else none (no pruning)."""
        if not self.settings.prune or self.ranking is None:
            return frozenset()
        ranked = self.ranking(view)
        if ranked is None or len(ranked) <= self.settings.prune:
            return frozenset()
        return frozenset(int(a) for a in ranked[: self.settings.prune])

    def _score(self, state: State, root_stage: int, partial: Sequence[int] | None, players: int) -> list[float]:
        """The reward vector of a playout that ended in ``state`` (``partial``: the estimated points of a stage cut
        off in the middle)."""
        stage_scores = state.stage_scores
        whole_game = self.settings.horizon == "game"
        if self.settings.reward == "win" and whole_game and state.turn < 0:
            return list(state.returns())
        points = [0] * players
        for scores in stage_scores[root_stage:] if whole_game else stage_scores[root_stage : root_stage + 1]:
            for seat in range(players):
                points[seat] += scores[seat]
        if partial is not None:
            for seat in range(players):
                points[seat] += partial[seat]
        high = self.game.high_score_wins
        if self.settings.reward == "win":
            best = max(points) if high else min(points)
            winners = points.count(best)
            return [1.0 / winners if p == best else 0.0 for p in points]
        spanned = max(1, len(stage_scores) - root_stage + (partial is not None)) if whole_game else 1
        scale = self.settings.scale * math.sqrt(spanned) * (players - 1)
        total = sum(points)
        rewards: list[float] = []
        for p in points:
            d = p * players - total  # (players - 1) * (p - mean of the others)
            if not high:
                d = -d
            x = d / scale
            rewards.append(1.0 / (1.0 + math.exp(-x)) if x > -700 else 0.0)
        return rewards
