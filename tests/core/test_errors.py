"""Errors are data (issue 12 item 4): every refusal in the package is a DreizehnError with a code the catalogues
have and a rule; errors cross process boundaries intact and are said in every language."""

from __future__ import annotations

import ast
import json
import pickle
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import dreizehn
from dreizehn.core.errors import (
    BackendError,
    BotSpecError,
    DreizehnError,
    IllegalActionError,
    RecordError,
    ShuffleNeeded,
)
from dreizehn.core.record import replay, to_record
from dreizehn.play.table import NotYourTurnError, StaleVersionError
from dreizehn.words import Word, words

SRC = Path(dreizehn.__file__).parent
DOCS = SRC.parent.parent / "docs"

BARE = {"ValueError", "TypeError", "KeyError", "RuntimeError", "Exception", "IndexError", "LookupError"}
"""Exceptions that no refusal may be (raised as ``raise X(...)`` or ``raise X``)."""

ALLOWED_BARE: dict[tuple[str, str], str] = {
    ("server/workers.py", "_put"): "a task handed to worker processes that were shut down is a mistake of the "
                                   "server's own code (it stops them last); no input reaches it",
    ("core/wire.py", "_type_schema"): "a view class field of a type with no JSON form is a mistake in a game "
                                      "module's code, found by the schema tests; no input reaches it",
    ("bots/learned_kernel.py", "compile_network"): "only the networks shipped in the package are compiled (each by "
                                                   "the tests): one of another depth than benchmarks/fit_learned.py "
                                                   "fits is a mistake of the package's data; no input reaches it",
    ("core/scaffold.py", "unbound"): "the placeholder of a game function in a compiled template, called only when "
                                     "the template runs unspecialised: a mistake of the package's own code, no input "
                                     "reaches it",
    ("games/three_thirteen/melds.py", "_replay"): "the meld solver's replay disagreeing with its kernel is a bug of "
                                                  "the solver (no input reaches it: 'pragma: no cover'), not a refusal",
    ("games/three_thirteen/melds.py", "_draft"): "the first step of that replay (the cards its kernel left over): "
                                                 "a bug of the solver, as above",
}
"""(file, function) -> why a bare exception is raised there. Re-raising (``raise``, ``raise err``), ``assert``,
``AssertionError`` and ``NotImplementedError`` are allowed everywhere: they are no refusals of input."""

ALLOWED_WITHOUT_RULE: dict[tuple[str, str], str] = {}
"""(file, function) -> why a DreizehnError is made there without a rule."""

DOCUMENTED = {"A": "api.md", "B": "bots.md", "C": "cli.md", "E": "envs.md", "R": "record-format.md", "W": "wire.md"}
"""The documents that number the rules of each letter besides the games' (K, T, H: shared/rules)."""


def _sources() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(SRC.rglob("*.py")):
        yield path.relative_to(SRC).as_posix(), ast.parse(path.read_text(encoding="utf-8"), str(path))


def _error_classes(trees: list[tuple[str, ast.Module]]) -> set[str]:
    """The names of DreizehnError and every class of the package that derives from it (by name, to a fixpoint)."""
    names = {"DreizehnError"}
    bases = {node.name: {b.id if isinstance(b, ast.Name) else b.attr for b in node.bases
                         if isinstance(b, ast.Name | ast.Attribute)}
             for _, tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    while True:
        more = {name for name, of in bases.items() if of & names} - names
        if not more:
            return names
        names |= more


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Every node with the name of the innermost function around it ("" at module level)."""
    def visit(node: ast.AST, function: str) -> Iterator[tuple[str, ast.AST]]:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            yield name, child
            yield from visit(child, name)
    yield from visit(tree, "")


def _called(node: ast.expr) -> str:
    func = node.func if isinstance(node, ast.Call) else node
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _codes(arg: ast.expr) -> list[str] | None:
    """The codes a first argument can be: a string constant, or either branch of ``a if c else b``."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return [arg.value]
    if isinstance(arg, ast.IfExp):
        body, orelse = _codes(arg.body), _codes(arg.orelse)
        return body + orelse if body is not None and orelse is not None else None
    return None


TREES = list(_sources())
ERRORS = _error_classes(TREES)


def test_no_refusal_is_a_bare_exception() -> None:
    found = []
    for path, tree in TREES:
        for function, node in _functions(tree):
            bare = isinstance(node, ast.Raise) and node.exc is not None and _called(node.exc) in BARE
            if bare and (path, function) not in ALLOWED_BARE:
                assert isinstance(node, ast.Raise) and node.exc is not None
                found.append(f"{path}:{node.lineno} ({function or 'module'}): raise {_called(node.exc)}")
    assert not found, "refusals must be DreizehnErrors naming a rule:\n" + "\n".join(found)


def _error_calls() -> Iterator[tuple[str, str, ast.Call]]:
    for path, tree in TREES:
        for function, node in _functions(tree):
            if isinstance(node, ast.Call) and _called(node) in ERRORS:
                yield path, function, node


def test_every_code_raised_is_in_the_english_catalogue() -> None:
    english = words("en")
    missing, unknown = [], []
    calls = list(_error_calls())
    assert len(calls) > 200, "the search for errors found too few"
    for path, function, call in calls:
        where = f"{path}:{call.lineno} ({function or 'module'}): {_called(call)}"
        codes = _codes(call.args[0]) if call.args else None
        if codes is None:
            unknown.append(f"{where}: the code is not a string constant")
            continue
        missing += [f"{where}: {code!r}" for code in codes if not english.has(code)]
    assert not unknown and not missing, (
        "every error's code is a catalogue key (a game's in its own domain, others in dreizehn.po):\n"
        + "\n".join(unknown + missing)
    )


def test_every_refusal_names_a_rule() -> None:
    found = []
    for path, function, call in _error_calls():
        names = {keyword.arg for keyword in call.keywords}
        if "rule" not in names and None not in names and (path, function) not in ALLOWED_WITHOUT_RULE:
            found.append(f"{path}:{call.lineno} ({function or 'module'}): {_called(call)}({ast.unparse(call.args[0])}"
                         if call.args else f"{path}:{call.lineno}")
    assert not found, "every refusal names the rule it breaks:\n" + "\n".join(found)


def test_every_rule_cited_is_numbered_in_its_document() -> None:
    cited: dict[str, set[str]] = {}
    for path, function, call in _error_calls():
        for keyword in call.keywords:
            value = keyword.value
            if keyword.arg == "rule" and isinstance(value, ast.Constant) and isinstance(value.value, str):
                cited.setdefault(value.value, set()).add(f"{path} ({function})")
    assert {"R1", "R10", "B1", "C4", "E5", "W6", "A6"} <= set(cited)
    for rule in cited:
        letter = rule[0]
        assert re.fullmatch(r"[A-Z]\d+", rule), rule
        if letter in DOCUMENTED:
            text = (DOCS / DOCUMENTED[letter]).read_text(encoding="utf-8")
            assert re.search(rf"\*\*{rule}\.?\*\*", text), f"{rule} is cited but not numbered in {DOCUMENTED[letter]}"


def _record_doc() -> dict[str, object]:
    return to_record(dreizehn.new_game("knizia13", players=3, seed=5))


def _refused(doc: dict[str, object]) -> RecordError:
    with pytest.raises(RecordError) as refused:
        replay(doc)
    return refused.value


def test_errors_pickle_intact() -> None:
    colour = IllegalActionError("knizia13.error.colour", rule="K10", card="G5",
                                colour=Word("knizia13.colour.green"), target=Word("knizia13.colour.blue"))
    nested = _refused({**_record_doc(), "game": "skat"})
    needed = ShuffleNeeded("shuffle.missing", (3, 1, 2), rule="R8", number=4)
    stale = StaleVersionError("table.stale", given=3, current=5)
    turn = NotYourTurnError("table.bot_seat", rule="K8", seat=1)
    spec = BotSpecError("bot.unknown", rule="B2", name="genius", bots="random, heuristic, ismcts")
    backend = BackendError("backend.unknown", rule="C4", backend="threads", first="processes", second="ray")
    for err in (colour, nested, needed, stale, turn, spec, backend):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err)
        assert (back.code, back.rule, set(back.params)) == (err.code, err.rule, set(err.params))
        assert str(back) == str(err) and back.to_json() == err.to_json()
        assert isinstance(back, ValueError) and back.args == err.args
    assert pickle.loads(pickle.dumps(needed)).cards == (3, 1, 2)
    back_stale = pickle.loads(pickle.dumps(stale))
    assert (back_stale.given, back_stale.current, back_stale.rule) == (3, 5, "W6")
    assert str(back_stale) == "the action was chosen in version 3 of the game, which is now at version 5 (W6)"
    assert isinstance(pickle.loads(pickle.dumps(nested)).params["error"], dreizehn.UnknownGameError)


def test_a_record_error_with_its_cause_as_json() -> None:
    err = _refused({**_record_doc(), "game": "skat"})
    doc = err.to_json()
    assert doc == {
        "code": "record.game",
        "rule": "R7",
        "params": {"error": {"code": "game.unknown", "rule": "A1",
                             "params": {"game": "skat", "games": ", ".join(dreizehn.game_ids())}}},
    }
    assert json.loads(json.dumps(doc)) == doc
    assert str(err) == ("the record's 'game' field: there is no game 'skat' (the games are: knizia13, three-thirteen, "
                        "holzwurm) (A1) (R7)")


def test_record_errors_in_german_and_dutch() -> None:
    doc = _record_doc()
    err = _refused({**doc, "over": 0})
    assert str(err) == "the record's 'over' field must be true or false, not 0 (R6)"
    assert words("de").error(err) == "Das Feld 'over' des Spielprotokolls ist true oder false, nicht 0 (R6)"
    assert words("nl").error(err) == "het veld 'over' van het spelverslag moet true of false zijn, niet 0 (R6)"
    players = _refused({**doc, "players": ["a", "b"]})
    assert words("de").error(players) == ("Das Feld 'players' des Spielprotokolls nennt 2 Spieler: 13 ist für 3 bis 6 "
                                          "Spieler, nicht für 2 (K4) (R7)")
    assert words("nl").error(players) == ("het veld 'players' van het spelverslag noemt 2 spelers: 13 is voor 3 tot 6 "
                                          "spelers, niet voor 2 (K4) (R7)")
    first = dreizehn.new_game("knizia13", players=3, seed=5).current_player
    other = (first + 1) % 3
    late = _refused({**doc, "actions": [[other, "B1"]]})
    assert late.code == "record.wrong_seat" and late.rule == "R9"
    assert words("de").error(late) == f"Zug 1 ('B1') ist von Platz {other}, aber Platz {first} war am Zug (R9)"
    assert words("nl").error(late) == f"zet 1 ('B1') is van plaats {other}, maar plaats {first} was aan de beurt (R9)"


def test_every_shared_error_code_is_said_in_every_language_with_its_fields() -> None:
    """Each catalogue entry of a code the package raises, rendered with its own fields, leaves none unfilled."""
    english = words("en")
    for path, _, call in _error_calls():
        for code in (_codes(call.args[0]) or []) if call.args else []:
            fields = {name.split("!")[0].split(":")[0] for name in re.findall(r"\{([^{}]+)\}", english.template(code))}
            params = {name: 1 for name in fields if name != "n"}
            for lang in ("de", "nl"):
                said = words(lang)(code, n=2 if "n" in fields else None, **params)
                assert not re.search(r"\{\w+(![rsa])?(:[^{}]*)?\}", said), f"{path}: {code} in {lang}: {said}"


def test_the_command_line_speaks_the_language_asked(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from dreizehn.cli.main import app

    runner = CliRunner()
    result = runner.invoke(app, ["--lang", "de", "simulate", "knizia13", "-p", "9"])
    assert result.exit_code == 2 and "Fehler: 13 ist für 3 bis 6 Spieler, nicht für 9 (K4)" in result.output
    result = runner.invoke(app, ["--lang", "nl", "demo", "knizia13", "-o", "dealer"])
    assert result.exit_code == 2
    assert "fout: een optie wordt geschreven als NAME=VALUE, niet 'dealer' (C1)" in result.output
    result = runner.invoke(app, ["--lang", "xx", "games"])
    assert result.exit_code == 2 and "there is no language 'xx'" in result.output and "(C7)" in result.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "chess"}')
    result = runner.invoke(app, ["--lang", "de", "replay", str(bad)])
    assert result.exit_code == 1 and f"ungültiges Spielprotokoll {bad}: Das Feld 'format'" in result.output
    result = runner.invoke(app, ["--lang", "en", "replay", str(bad)])
    assert f"invalid record {bad}: the record's 'format' field must be 'dreizehn-record', not 'chess' (R5)" in \
        result.output


def test_no_error_is_its_code() -> None:
    """An error that escapes a bad input says a sentence, not its key (the legacy path is gone)."""
    game = dreizehn.load_game("knizia13", players=3)
    state = game.new_state(1)
    for attempt in (lambda: state.apply(99), lambda: state.apply("nonsense"), lambda: state.view(7),
                    lambda: dreizehn.new_game("knizia13", players=3, seed="x"),  # type: ignore[arg-type]
                    lambda: dreizehn.load_game("knizia13", players=3, options={"speed": 1})):
        with pytest.raises(DreizehnError) as refused:
            attempt()
        assert refused.value.rule and str(refused.value) != refused.value.code
        assert words("en").has(refused.value.code)
