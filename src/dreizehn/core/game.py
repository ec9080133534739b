"""The game protocol: a :class:`Game` (static facts and options) apart from a :class:`State` (a game in progress).

Every game of the package implements this protocol, and everything else (bots, interfaces, records, research
adapters) is written against it alone.

>>> import dreizehn
>>> state = dreizehn.new_game("knizia13", players=4, seed=7)
>>> state.current_player
1
>>> action = state.legal_actions()[0]
>>> state.apply(action)
>>> len(state.history)
1
"""

from __future__ import annotations

import dataclasses
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from dreizehn.core.cards import Token
from dreizehn.core.errors import GameOverError, InvalidActionError, InvalidOptionError, RecordError, ShuffleNeeded
from dreizehn.core.events import Event
from dreizehn.words import Word

Option = Any
"""An option's value after validation: an int, a str or a bool."""

if TYPE_CHECKING:
    from dreizehn.words import Words


def say_view_head(game: Game, words: Words, view: View, names: Sequence[str]) -> list[str]:
    """The lines every game's view starts with: the stage, whose turn it is (or that the game is over), the
    totals."""
    stage = words("view.stage", stage_name=words(f"{game.id}.stage", n=1),
                  stage=view.stage if view.is_over else view.stage + 1)
    lines = [stage[:1].upper() + stage[1:]]
    if view.is_over:
        lines.append(words("view.over"))
    elif view.current_player == view.seat:
        lines.append(words("view.your_turn"))
    else:
        lines.append(words("view.turn_of", player=player_name(words, names, view.current_player)))
    totals = words.join([words("score.of", player=player_name(words, names, seat), points=points)
                         for seat, points in enumerate(view.totals)])
    lines.append(words("view.totals", scores=totals))
    return lines


def number_refusal(game: Game, action: int, over: bool) -> InvalidActionError | GameOverError | None:
    """Why an action number is refused before the rules are asked, in the order :meth:`State.apply` checks: a number
    that is no action of ``game`` (rule A5), then a game that is ``over`` (A6); ``None`` where neither. The compiled
    kernels' ``why`` asks it too (:class:`~dreizehn.core.kernel.CompiledKernel`)."""
    if not 0 <= action < game.num_actions:
        return InvalidActionError("action.not_number", rule="A5", action=action, game=game.title)
    if over:
        return GameOverError("action.game_over", rule="A6")
    return None


def player_name(words: Words, names: Sequence[str], seat: int) -> str:
    """The name of ``seat`` (numbered from 1 in words when it has none)."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return words("seat.name", seat=seat + 1)


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name, default, the values it takes and the rule that defines it.

    ``kind`` is ``"choice"`` (one of ``choices``), ``"seat"`` (a seat number or ``"random"``), ``"int"`` (between
    ``low`` and ``high``, ``None`` meaning a default computed from the player count) or ``"bool"``.
    """

    name: str
    kind: str
    default: Option
    rule: str
    description: str
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0

    def allowed(self, players: int) -> str:
        """The allowed values, in words."""
        if self.kind == "choice":
            return " | ".join(self.choices)
        if self.kind == "seat":
            return f"0..{players - 1} | random"
        if self.kind == "int":
            return f"{self.low}..{self.high}"
        return "true | false"

    def validate(self, value: object, players: int) -> Option:
        """Return the option's value checked and normalised; text as typed on a command line is accepted."""
        name = self.name
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.lower() in ("true", "yes", "on", "1", "false", "no", "off", "0"):
                return value.lower() in ("true", "yes", "on", "1")
            raise InvalidOptionError("option.not_bool", rule=self.rule, name=name, value=value)
        if self.kind == "choice":
            if isinstance(value, str) and value.lower() in self.choices:
                return value.lower()
            raise InvalidOptionError("option.not_choice", rule=self.rule, name=name, choices=", ".join(self.choices),
                                     value=value)
        if self.kind == "seat" and isinstance(value, str) and value.lower() == "random":
            return "random"
        number = _as_int(value)
        if self.kind == "seat":
            if number is None or not 0 <= number < players:
                raise InvalidOptionError("option.not_seat", rule=self.rule, name=name, last=players - 1, value=value)
            return number
        if number is None or not self.low <= number <= self.high:
            raise InvalidOptionError("option.not_in_range", rule=self.rule, name=name, low=self.low, high=self.high,
                                     value=value)
        return number


def _as_int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


@dataclass(frozen=True)
class View:
    """What one seat may know of a game: the base of each game's view.

    ``history`` is the public course of the game: every action with the seat that made it (all actions of the three
    games are public; what stays hidden is which cards the shuffles dealt). ``legal_actions`` is empty unless the
    seat is to move. Views are plain values: they compare equal when they hold the same information.
    """

    game_id: str
    players: int
    options: Mapping[str, Option]
    seat: int
    current_player: int
    is_over: bool
    stage: int
    stage_scores: tuple[tuple[int, ...], ...]
    history: tuple[tuple[int, int], ...]
    legal_actions: tuple[int, ...] = field(default=())

    @property
    def totals(self) -> tuple[int, ...]:
        """Scores added up over the finished stages."""
        return tuple(sum(column) for column in zip(*self.stage_scores, strict=True)) or (0,) * self.players

    def __deepcopy__(self, memo: dict[int, object]) -> View:
        """A view is a value that never changes: a deep copy is the view itself."""
        return self


@dataclass(frozen=True)
class Arrangement:
    """A hand laid out by its game (:meth:`Game.arrange_hand`): its groups (Three Thirteen's melds), the cards left
    out of every group and the penalty they cost."""

    groups: tuple[tuple[int, ...], ...]
    rest: tuple[int, ...]
    penalty: int


class Game(ABC):
    """A game with its player count and options fixed: the static facts every state of it shares.

    Subclasses set the class attributes and implement :meth:`new_state`, :meth:`sample_state` and the card/action
    types. Construct through :func:`dreizehn.load_game` or directly::

        >>> from dreizehn.games.knizia13 import Knizia13
        >>> Knizia13(players=3).stages
        6
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]]
    stage_name: ClassVar[str] = "stage"
    high_score_wins: ClassVar[bool] = False
    card_type: ClassVar[type[Token]]
    action_type: ClassVar[type[Token]]
    player_rule: ClassVar[str]
    event_params: ClassVar[dict[str, dict[str, Any]]] = {}
    """Each event key of the game's own actions, with the JSON Schema of its parameters (docs/wire.md)."""
    explanation_schema: ClassVar[dict[str, Any]] = {"type": "object"}
    """The JSON Schema of a stage's scoring explanation (:meth:`State._explain_stage`)."""
    quick_options: ClassVar[dict[str, object]] = {}
    """Options that make a short game of this game, for tests and demonstrations (the game's own choice)."""
    turn_rule: ClassVar[str] = ""
    """The rule that says whose turn it is (cited when a seat acts out of turn)."""
    eager_actions: ClassVar[frozenset[int]] = frozenset()
    """Actions a random player takes whenever they are legal, so that random games end (Three Thirteen's going out)."""
    deck: tuple[int, ...]
    """Every card of the game (as card numbers, sorted): what a state's cards always add up to."""

    # -- one game, one place: what the bots, the research adapters and the interfaces need to know of a game is
    # declared on its class (docs/adding-a-game.md), never in lists kept elsewhere.
    order: ClassVar[int] = 100
    """Where the game stands among :func:`~dreizehn.core.registry.game_ids` (lower first, then by id)."""
    heuristic: ClassVar[str] = ""
    """The module of the game's heuristic bot, written from its rulebook's advice (:mod:`dreizehn.bots.advice`):
    it defines ``act(view, rng)``, and where the game has them ``rank(view)`` (a decision's actions best first, for
    ``ismcts:prune``), ``playout_action(state, random)`` (a greedy playout policy) and ``estimate(state)`` (the points
    of a stage cut off now)."""
    kernel: ClassVar[str] = ""
    """The module of the game's compiled kernel (:mod:`dreizehn.core.kernel`, docs/vector.md): it defines
    ``make(game)``, which returns the :class:`~dreizehn.core.kernel.Kernel` of a game's player count and options; none:
    the game has no batched environment."""
    encoder: ClassVar[str] = ""
    """The module of the game's fixed-size tensors for research (:mod:`dreizehn.core.encoding`): it defines
    ``encoder(game)``, which returns the :class:`~dreizehn.core.encoding.Encoder` of a game's player count and options
    (:func:`dreizehn.core.encoding.encoder_of`); none: the game cannot be played in the research adapters."""
    terminal: ClassVar[str] = ""
    """The module of the game's drawing in the terminal game (:mod:`dreizehn.core.terminal`); none: its view in
    words."""
    levels: ClassVar[Mapping[str, str]] = {
        "easy": "heuristic:blunder=0.5",
        "medium": "heuristic",
        "hard": "ismcts:iterations=1000",
        "expert": "ismcts:iterations=10000",
    }
    """Each bot level's specification in this game (:mod:`dreizehn.bots.levels`; measured in docs/bots.md): the
    levels of :data:`~dreizehn.bots.levels.LEVEL_NAMES` from ``easy`` on. ``master`` is offered only where a game
    declares it: a search measured to beat its ``expert`` at under a second a move (13 and Holzwurm; where a game
    has none, the name plays its ``expert``)."""
    hint_level: ClassVar[str] = "expert"
    """The level whose move a hint puts first (:func:`dreizehn.play.hints.hint`): the strongest whose moves take well
    under
    a hint's second (docs/bots.md, "Hints")."""
    levels_at: ClassVar[Mapping[int, Mapping[str, str]]] = {}
    """The levels that differ at a player count from :attr:`levels`, by player count (Three Thirteen's search is its
    ``expert`` at the player counts where it was measured to beat the heuristic)."""
    levels_at_options: ClassVar[Mapping[str, object]] = {}
    """The options with which :attr:`levels_at` holds (its levels but ``learned``): with others, :attr:`levels`
    plays (Holzwurm's ``expert`` at 4 players reads the ``learned`` bot's network, fitted for a match of 3 games)."""
    level_order: ClassVar[tuple[str, ...]] = ()
    """The order of the game's levels, weakest first, where measured strength orders them otherwise than
    :data:`~dreizehn.bots.levels.LEVEL_NAMES` (Holzwurm's ``learned`` above its ``hard``); none: that order."""
    search: ClassVar[Mapping[str, object]] = {}
    """The ``ismcts`` bot's defaults in this game where they differ from its general ones: ``iterations``,
    ``scale``, ``root``, ``prune`` (:mod:`dreizehn.bots.ismcts`)."""
    research_players: ClassVar[int] = 0
    """The player count of a research environment made without one (0: :attr:`min_players`)."""
    research_options: ClassVar[Mapping[str, object]] = {}
    """The options of a research environment where they differ from the engine's defaults, so that every game made
    with default parameters ends whoever plays it (docs/envs.md)."""
    arranges: ClassVar[bool] = False
    """Whether the game lays a hand out in its best arrangement (:meth:`arrange_hand`), which the browser offers as
    "arrange" (``POST /api/web/arrange``, docs/web.md)."""

    @classmethod
    def folder(cls) -> Path:
        """The game's own folder: the one holding the module that defines its class (its catalogues are in
        ``locale/`` there, docs/adding-a-game.md)."""
        module = sys.modules[cls.__module__]
        return Path(module.__file__ or ".").parent

    @classmethod
    def env_name(cls) -> str:
        """The game's name in Gymnasium's registry (``dreizehn/<Name>-v0``): its class's name."""
        return cls.__name__

    @property
    def stages(self) -> int:
        """The number of stages (rounds, games of a match) a whole game has; one unless the game says otherwise."""
        return 1

    def arrange_hand(self, hand: Sequence[int], view: Mapping[str, Any]) -> Arrangement:
        """The best arrangement of ``hand`` (a seat's own cards) by the game's rules, given the other fields of the
        seat's view in their wire form (docs/wire.md); only a game that :attr:`arranges` has one, and any other refuses
        (rule A7)."""
        raise InvalidActionError("game.no_arrangement", rule="A7", game=self.title)

    captures: ClassVar[bool] = False
    """Whether a play may take cards (13's K11, Holzwurm's H12): then :meth:`action_cost` says what each takes."""

    @classmethod
    def action_cost(cls, view: View, action: int) -> tuple[int, int] | None:
        """What a legal action of ``view`` takes into its player's hand or pile, as that seat can tell from its view:
        ``(cards, points)`` (the cards taken, counted as the game's log counts them, and the points the hand or pile
        changes by the game's count, before any end-of-stage rule such as 13's majority), or ``None`` for a play that
        takes nothing (every play of a game without captures). The wire's legal actions carry it (``takes``), so that
        a page can warn before the play; a game whose catalogue has ``<id>.takes`` says it so (with ``n``, the cards,
        and ``points``, signed), else ``web.takes`` / ``tui.takes`` ("takes 4 cards: −9")."""
        return None

    def max_actions(self) -> int | None:
        """A bound on the number of player actions in a whole game, reached by some games; ``None`` where there is
        none. By default every action plays a card: at most the deck's size a stage."""
        return self.stages * len(self.deck)

    def max_seat_actions(self) -> int | None:
        """A bound on the number of actions of one seat in a whole game; ``None`` where there is none (by default
        :meth:`max_actions`, not tight)."""
        return self.max_actions()

    def __init__(self, players: int, options: Mapping[str, object] | None = None) -> None:
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidOptionError("players.not_whole", rule=self.player_rule, players=players)
        if not self.min_players <= players <= self.max_players:
            raise InvalidOptionError("players.range", rule=self.player_rule, game=self.title, low=self.min_players,
                                     high=self.max_players, players=players)
        self.players = players
        if options is not None and not isinstance(options, Mapping):
            raise InvalidOptionError("option.not_mapping", rule="A2", options=options)
        given = dict(options or {})
        known = {spec.name: spec for spec in self.option_specs}
        unknown = sorted(set(given) - set(known), key=str)
        if unknown:
            raise InvalidOptionError("option.unknown", rule="A2", game=self.title, name=unknown[0],
                                     options=", ".join(known) or Word("list.none"))
        self.options: dict[str, Option] = {
            name: spec.validate(given[name], players) if name in given else self._default(spec)
            for name, spec in known.items()
        }
        self._check_options()
        self.num_actions: int = len(self.action_type.all())
        """The size of the dense action space: actions are the ints ``0 .. num_actions - 1``."""

    def _default(self, spec: OptionSpec) -> Option:
        return spec.default

    def _check_options(self) -> None:
        """Checks between options and the player count (subclasses override)."""

    def parse_action(self, text: str) -> Token:
        """The action written as ``text`` (see docs/notation.md)."""
        return self.action_type.parse(text)

    def action_to_text(self, action: int) -> str:
        """The canonical text of an action."""
        return self.action_type.of(action).text

    def parse_card(self, text: str) -> Token:
        """The card written as ``text``."""
        return self.card_type.parse(text)

    def resolve_seat(self, name: str, seed: int) -> int:
        """The value of a seat option, drawing ``"random"`` from the game's seed."""
        value = self.options[name]
        if value == "random":
            return random.Random(f"{seed}:{name}").randrange(self.players)
        return int(value)

    @abstractmethod
    def new_state(self, seed: int, *, shuffles: Sequence[Sequence[int]] | None = None) -> State:
        """A new game, shuffled from ``seed``: the same seed and the same actions give the same game.

        ``shuffles`` (used to replay records) gives the order of every shuffle instead of drawing them from the seed.
        """

    def resolved_options(self, seed: int) -> dict[str, Option]:
        """The options with every ``"random"`` seat drawn from ``seed``."""
        return {
            spec.name: (self.resolve_seat(spec.name, seed) if spec.kind == "seat" else self.options[spec.name])
            for spec in self.option_specs
        }

    @abstractmethod
    def sample_state(self, view: View, rng: random.Random) -> State:
        """A complete state consistent with ``view``, uniform over what its seat cannot see.

        Its future shuffles are drawn from ``rng``, never from the real game's seed.
        """

    infers: ClassVar[bool] = False
    """Whether :meth:`infer_state` deals the hidden cards by what the seat saw (else it is :meth:`sample_state`)."""

    def infer_state(self, view: View, rng: random.Random) -> State:
        """A complete state consistent with ``view``, each way of dealing what its seat cannot see in proportion to
        how likely it is given what the seat saw (what the others took, passed over, let go); where the game has no
        such model (:attr:`infers` false), uniform: :meth:`sample_state`."""
        return self.sample_state(view, rng)

    # -- words (the templates are in the game's catalogue domain, dreizehn/words/locale/*/<game id>.po) ---------

    def say_card(self, words: Words, card: int) -> str:
        """A card in words (``"the blue 5"``); by default the template ``<game id>.card`` with the card's text."""
        return words(f"{self.id}.card", card=self.card_type.of(card).text)

    def card_face(self, words: Words, card: int) -> dict[str, str]:
        """What a card shows where it is drawn (the browser's cards): ``colour`` (a name its drawing styles),
        ``value`` (the big text), ``shape`` (a symbol for its colour or suit, so that colour is never the only sign)
        and ``label`` (the card in words). By default a plain card with its notation."""
        text = self.card_type.of(card).text
        return {"colour": "plain", "value": text, "shape": "", "label": self.say_card(words, card)}

    def say_action(self, words: Words, action: int, player: str | None = None) -> str:
        """An action in words: offered to the player who may take it (``player`` ``None``: "Put the blue 5 on the
        blue target") or told as done by ``player`` ("Anna puts the blue 5 on the blue target")."""
        key = f"{self.id}.action" if player is None else f"{self.id}.action.done"
        return words(key, action=self.action_to_text(action), player=player)

    def event_words(self, words: Words, event: Event, names: Sequence[str]) -> dict[str, Any]:
        """The parameters an event's template is filled with: the event's own, and ``player`` for ``seat`` (each
        game adds its own, such as its cards in words)."""
        params = dict(event.params)
        if "seat" in params:
            params["player"] = player_name(words, names, int(params["seat"]))
        return params

    def event_key(self, event: Event) -> str:
        """The catalogue key an event is said with: its own key by default; a game picks another where one event
        reads differently by its parameters (a play that takes cards, a drawn card only its drawer sees)."""
        return event.key

    def say_explanation(self, words: Words, explanation: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """A stage's scoring explanation (:meth:`State._explain_stage`) in words, a line per seat or per point."""
        return []

    def say_view(self, words: Words, view: View, names: Sequence[str]) -> list[str]:
        """A view in words, a line each (for screen readers and the plain terminal mode): the game's own lines (its
        table, the hand, the cards known) after :func:`say_view_head`."""
        return say_view_head(self, words, view, names)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != self._default_for_repr(k)}
        extra = f", options={changed!r}" if changed else ""
        return f"dreizehn.load_game({self.id!r}, players={self.players}{extra})"

    def _default_for_repr(self, name: str) -> Option:
        return next(self._default(s) for s in self.option_specs if s.name == name)


class State(ABC):
    """A game in progress. The engine owns it; interfaces and bots see it only through :meth:`view`.

    The base class keeps what every game shares: the game, the shuffles as they fell, the log of actions and the
    scores of the finished stages. Subclasses keep the cards.
    """

    __slots__ = ("_forced", "_seed", "_shuffle_no", "game", "log", "options", "shuffles", "stage_scores", "turn")

    game: Game
    options: dict[str, Option]
    log: list[tuple[int, int]]
    shuffles: list[tuple[int, ...]]
    stage_scores: list[tuple[int, ...]]
    turn: int
    """The seat to move, -1 once the game is over."""

    def _init_base(
        self,
        game: Game,
        seed: int,
        forced: Sequence[Sequence[int]] | None = None,
        options: Mapping[str, Option] | None = None,
    ) -> None:
        """Set up the shared fields; ``options`` (already resolved, as a view holds them) skips drawing the
        ``"random"`` seats from ``seed``."""
        self.game = game
        self.options = dict(options) if options is not None else game.resolved_options(seed)
        self._seed = seed
        self._shuffle_no = 0
        self._forced: list[tuple[int, ...]] | None = [tuple(s) for s in forced] if forced is not None else None
        self.log = []
        self.shuffles = []
        self.stage_scores = []

    def _copy_base(self, other: State) -> None:
        other.game = self.game
        other.options = self.options
        other._seed = self._seed
        other._shuffle_no = self._shuffle_no
        other._forced = None if self._forced is None else list(self._forced)
        other.log = self.log.copy()
        other.shuffles = self.shuffles.copy()
        other.stage_scores = self.stage_scores.copy()
        other.turn = self.turn

    def _shuffle(self, cards: Sequence[int]) -> list[int]:
        """The cards in shuffled order, top first: drawn from the seed, or taken from a record being replayed."""
        if self._forced is not None:
            if not self._forced:
                raise ShuffleNeeded("shuffle.missing", tuple(sorted(cards)), rule="R8", number=self._shuffle_no + 1)
            order = self._forced.pop(0)
            if sorted(order) != sorted(cards):
                raise RecordError("shuffle.not_order", rule="R8", number=self._shuffle_no + 1, count=len(cards))
            result = list(order)
        else:
            result = list(cards)
            random.Random(f"{self._seed}:{self._shuffle_no}").shuffle(result)
        self._shuffle_no += 1
        self.shuffles.append(tuple(result))
        return result

    def reseed(self, seed: int) -> None:
        """Draw the shuffles still to come from ``seed``: a replayed record's state goes on as a game with that seed
        would (the shuffles already made keep their numbers, so the seed it was played with continues it exactly)."""
        self._forced = None
        self._seed = seed

    def await_shuffles(self, orders: Sequence[Sequence[int]] = ()) -> None:
        """Take the next shuffles from ``orders`` (top card first), in turn, instead of drawing them from the seed;
        a shuffle beyond them raises :class:`~dreizehn.core.errors.ShuffleNeeded`, naming the cards to shuffle.
        The action that needed it may be left half done, so apply actions to a copy while shuffles are awaited.

        This is how an adapter makes the shuffles explicit chance events: apply an action to a copy, and if it
        raises ``ShuffleNeeded``, choose an order of its ``cards`` and apply the action again to a fresh copy with
        the order given.
        """
        self._forced = [tuple(order) for order in orders]

    # -- the protocol ---------------------------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to move, or -1 once the game is over."""
        return self.turn

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.turn < 0

    @property
    @abstractmethod
    def stage(self) -> int:
        """The number of the stage (round, game of a match) being played, from 0; equals the number of stages once
        the game is over."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Token]:
        """The actions the player to move may take, in index order (empty once the game is over)."""

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Apply an action already known to be an action number; raise before changing anything if illegal."""

    @abstractmethod
    def copy(self) -> State:
        """An independent copy (cheap: bots copy states millions of times)."""

    def __deepcopy__(self, memo: dict[int, object]) -> State:
        """``copy.deepcopy`` is :meth:`copy`: the cards are copied, the game (static facts) is shared."""
        return self.copy()

    @abstractmethod
    def view(self, seat: int) -> View:
        """What ``seat`` may know, under the game's information rule."""

    def spectator_view(self) -> View:
        """What a spectator may know: the public information alone, as a view of seat -1 with no hand and no legal
        actions."""
        view = self.view(max(self.turn, 0))
        return dataclasses.replace(view, seat=-1, legal_actions=(), **self._spectator_fields(view))

    def _spectator_fields(self, view: View) -> dict[str, Any]:
        """The fields of a seat's view that a spectator sees otherwise: the hand is hidden (each game adds its
        own)."""
        return {"hand": ()}

    def _view_fields(self, seat: int) -> dict[str, Any]:
        """The fields every game's view shares, for ``seat`` (checked)."""
        n = self.game.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidActionError("seat.unknown", rule="A4", seat=seat, players=n)
        return {
            "game_id": self.game.id,
            "players": n,
            "options": self.options,
            "seat": seat,
            "current_player": self.turn,
            "is_over": self.turn < 0,
            "stage": self.stage,
            "stage_scores": tuple(self.stage_scores),
            "history": tuple(self.log),
            "legal_actions": tuple(self.legal_actions()) if seat == self.turn else (),
        }

    @abstractmethod
    def resample_hidden(self, seat: int, rng: random.Random) -> State:
        """A copy in which everything hidden from ``seat`` is dealt anew at random from the true state (for tests
        that check views leak nothing: the view of ``seat`` must not change)."""

    @abstractmethod
    def all_cards(self) -> list[int]:
        """Every card in play, wherever it lies (hands, piles, table, unseen): the conservation checks compare it
        with :attr:`Game.deck`. Empty once the game is over."""

    # -- shared behaviour -----------------------------------------------------------------------------------------

    def apply(self, action: int | str) -> None:
        """Apply an action, given as its number or its text. An illegal one raises (naming the rule) and changes
        nothing."""
        if isinstance(action, str):
            action = self.game.action_type.parse(action)
        elif isinstance(action, bool) or not isinstance(action, int):
            raise InvalidActionError("action.not_number_or_text", rule="A5", action=action)
        refused = number_refusal(self.game, action, self.is_over)
        if refused is not None:
            raise refused
        seat = self.current_player
        self._apply(action)
        self.log.append((seat, action))

    def may_shuffle(self, action: int) -> bool:
        """Whether applying ``action`` (a legal one) may shuffle; ``False`` promises that it will not, so that an
        adapter awaiting its shuffles (:meth:`await_shuffles`) may apply it without a copy. ``True`` unless a game
        says otherwise; its tests check the promise over many games."""
        return True

    def apply_legal(self, action: int) -> None:
        """Apply an action taken from :meth:`legal_actions`, skipping the checks of the input (for searches that
        apply millions of actions; the rules are still enforced)."""
        seat = self.turn
        self._apply(action)
        self.log.append((seat, action))

    def apply_with_events(self, action: int | str) -> list[Event]:
        """Apply an action like :meth:`apply` and say what it did: the events, each with its private parts (filter
        them with :meth:`Event.for_seat` before anyone sees them). Slower than :meth:`apply` (it copies the state
        first), so searches and simulations without listeners use :meth:`apply`.

        >>> import dreizehn
        >>> state = dreizehn.new_game("knizia13", players=3, seed=5)
        >>> [event.key for event in state.apply_with_events(state.legal_actions()[0])]
        ['knizia13.played', 'knizia13.drew']
        """
        before = self.copy()
        self.apply(action)
        seat, number = self.log[-1]
        events = self._action_events(before, seat, number)
        if self.stage != before.stage:
            events.append(Event("stage.scored", {
                "stage": before.stage,
                "scores": list(self.stage_scores[-1]),
                "totals": list(self.totals),
                "explanation": self._explain_stage(before, seat, number),
            }))
            if self.is_over:
                events.append(Event("game.over", {"totals": list(self.totals), "winners": list(self.winners)}))
            else:
                events.append(self.deal_event())
        return events

    def deal_event(self) -> Event:
        """The event of the stage in progress being dealt: its number, the first seat to move and the hand sizes
        public, each hand private to its seat (what a table sends when a game starts or a stage begins)."""
        hands: list[Sequence[Token]] = [self.view(seat).hand for seat in range(self.game.players)]  # type: ignore[attr-defined]
        return Event(
            "stage.dealt",
            {"stage": self.stage, "first": self.turn, "hand_sizes": [len(hand) for hand in hands]},
            private={seat: {"hand": [card.text for card in hand]} for seat, hand in enumerate(hands)},
        )

    def _action_events(self, before: State, seat: int, action: int) -> list[Event]:
        """The events of ``action`` by ``seat``, which took ``before`` to this state, up to the end of a stage (the
        base adds the scoring, the next deal and the game's end). Each game says what its actions do."""
        return [Event("action", {"seat": seat, "action": self.game.action_to_text(action)})]

    def _explain_stage(self, before: State, seat: int, action: int) -> dict[str, Any]:
        """Why the stage that ``action`` ended scored as it did, as JSON-ready data (each game explains its own)."""
        return {}

    @property
    def history(self) -> tuple[tuple[int, int], ...]:
        """Every action so far with the seat that made it."""
        return tuple(self.log)

    @property
    def totals(self) -> tuple[int, ...]:
        """Scores added up over the finished stages."""
        totals = [0] * self.game.players
        for scores in self.stage_scores:
            for seat, points in enumerate(scores):
                totals[seat] += points
        return tuple(totals)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with the best total once the game is over (ties share the win); empty before."""
        if not self.is_over:
            return ()
        totals = self.totals
        best = max(totals) if self.game.high_score_wins else min(totals)
        return tuple(seat for seat, points in enumerate(totals) if points == best)

    def returns(self) -> tuple[float, ...]:
        """Per seat: 1 for a sole win, 1/k for a win shared by k seats, 0 otherwise (0 for all before the end)."""
        winners = self.winners
        return tuple((1.0 / len(winners) if seat in winners else 0.0) for seat in range(self.game.players))

    def legal_texts(self) -> list[str]:
        """The legal actions in text notation."""
        return [a.text for a in self.legal_actions()]

    def __repr__(self) -> str:
        turn = "over" if self.is_over else f"seat {self.current_player} to move"
        return f"<{type(self).__name__} {self.game.id} players={self.game.players} {self.game.stage_name} " \
               f"{self.stage + (0 if self.is_over else 1)}, {turn}, {len(self.log)} actions>"
