"""The reference parts of docs/server.md and docs/wire.md, written from the code: the websocket's messages and the
HTTP API's bodies and answers (from their models: each field with its JSON type, bounds and description), the API's
routes (from its OpenAPI document), every refusal code (from :data:`~dreizehn.server.refusals.REFUSALS` and the
catalogues: its rule, where it comes, its parameters and its English sentence), and every game's events (from their
JSON Schemas).

Each part stands in its page between ``<!-- reference: NAME -->`` and ``<!-- /reference -->``.
``python -m dreizehn.server.reference`` writes them in place; ``--check`` says which are stale
(tests/server/test_reference.py fails then, and when a field has no description or a code no entry).
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from dreizehn.server import protocol, schemas
from dreizehn.server.lobby import models as lobby_models
from dreizehn.server.notices import models as notices
from dreizehn.server.refusals import REFUSALS, engine_refusals

CLIENT_MODELS: tuple[type[BaseModel], ...] = (protocol.Hello, protocol.Act, protocol.AskHint, protocol.SetLanguage,
                                              protocol.Ready, protocol.Say, protocol.Offer, protocol.Accept,
                                              protocol.Decline,
                                              protocol.Undo, protocol.Ping)
SERVER_MODELS: tuple[type[BaseModel], ...] = (
    protocol.Welcome, protocol.Update, protocol.Refused, protocol.Presence, protocol.Hint, protocol.Rematch,
    protocol.Offered, protocol.Accepted, protocol.Declined, protocol.Said, protocol.TakenOver, protocol.TakenBack,
    protocol.TimedOut, protocol.Pong, protocol.SeatInfo,
    protocol.Told, protocol.StandInChange,
    protocol.SaidEvent,
    protocol.HintAnalysis, protocol.HintRating,
)
API_MODELS: tuple[type[BaseModel], ...] = (
    schemas.TableIn, schemas.SeatIn, schemas.JoinIn, schemas.NameIn, schemas.TokenIn, schemas.RematchIn,
    schemas.AnalysisIn,
    schemas.LearnIn, schemas.TutorialOut,
    schemas.CreatedOut, schemas.TableOut, schemas.SeatOut, schemas.Invitation, schemas.JoinedOut, schemas.GameOut,
    schemas.OptionOut,
    schemas.CardFace, schemas.ChatLineOut, schemas.ReplayOut, schemas.TakeBackOut, schemas.ReplayStep,
    schemas.ReplayViewsOut,
    schemas.AnalysisOut,
    schemas.DecisionOut, schemas.RatedMove, protocol.Refusal,
    schemas.SignUpIn, schemas.SignInIn, schemas.PasswordIn, schemas.NewPasswordIn, schemas.SessionOut,
    schemas.RatingOut, schemas.RatingPoint, schemas.LevelOut, schemas.PlayerRatingsOut, schemas.BoardRow,
    schemas.LeaderboardOut,
    schemas.DailyOut, schemas.DailyDealOut, schemas.DailyIn, schemas.DailyStartOut, schemas.DailyRow,
    schemas.DailyResultsOut, schemas.DailyDayOut, schemas.DailyHistoryOut,
    schemas.EmailIn, schemas.LinkIn, schemas.ResetIn, schemas.ResetConfirmIn, schemas.MailOut, schemas.VerifiedOut,
    # [social]
    schemas.UserNameIn, schemas.PersonOut, schemas.FriendsOut, schemas.SettingsIn, schemas.SettingsOut,
    schemas.ApiTokenIn, schemas.ApiTokenOut, schemas.NewApiTokenOut,
    schemas.MeOut, schemas.MyGame, schemas.PlayerAt, schemas.GameStats, schemas.PlayerOut,
    # the lobby (issue 46 item 3)
    lobby_models.QueueIn, lobby_models.QueueOut, lobby_models.LobbyOut, lobby_models.WaitingOut,
    # notices (docs/notices.md)
    notices.WaitingOut, notices.WaitingGame, notices.PushKeyOut, notices.PushIn, notices.PushKeysIn,
    notices.PushEndpointIn, notices.NoticesIn, notices.NoticesOut,
)
"""Every model the reference describes; each field of each must have a description."""

BEGIN = re.compile(r"<!-- reference: ([a-z-]+) -->\n")
END = "<!-- /reference -->"
INT64 = (protocol.INT64_MIN, protocol.INT64_MAX)


# -- JSON types ------------------------------------------------------------------------------------------------------


def json_type(schema: dict[str, Any], cards: frozenset[str] = frozenset()) -> str:
    """A JSON Schema as words: ``integer``, ``list of string``, ``SeatInfo``, ``"hello"``, ``card``…; ``cards``: the
    card texts of a game, named ``card`` rather than listed."""
    if "$ref" in schema:
        return f"`{schema['$ref'].rsplit('/', 1)[-1]}`"
    if "anyOf" in schema or "oneOf" in schema:
        branches: list[dict[str, Any]] = schema.get("anyOf") or schema.get("oneOf") or []
        return " or ".join(json_type(branch, cards) for branch in branches)
    if "const" in schema:
        return f'`"{schema["const"]}"`' if isinstance(schema["const"], str) else f"`{schema['const']}`"
    if "enum" in schema:
        if cards and set(schema["enum"]) <= cards:
            return "card"
        return " or ".join(f'`"{v}"`' if isinstance(v, str) else f"`{v}`" for v in schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(json_type({**schema, "type": k}, cards) for k in kind)
    if kind == "null":
        return "null"
    if kind == "array":
        return f"list of {json_type(schema.get('items', {}), cards)}"
    if kind == "object":
        return _object_type(schema, cards)
    if kind in ("integer", "number"):
        return f"{kind}{_bounds(schema)}"
    if kind == "string":
        low, high = schema.get("minLength"), schema.get("maxLength")
        limits = [f"{low} to {high} characters" if low and high else f"at most {high} characters"] if high else []
        limits += [f"matching `{schema['pattern']}`"] if "pattern" in schema else []
        return "string" + (f" ({', '.join(limits)})" if limits else "")
    return str(kind or "any JSON value")


def _object_type(schema: dict[str, Any], cards: frozenset[str]) -> str:
    properties = schema.get("properties")
    if properties:
        required = set(schema.get("required", ()))
        parts = [f"`{name}`{'' if name in required else '?'}: {json_type(sub, cards)}"
                 for name, sub in properties.items()]
        return "{" + ", ".join(parts) + "}"
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict) and extra:
        return f"object of {json_type(extra, cards)}"
    return "object"


def _bounds(schema: dict[str, Any]) -> str:
    low, high = schema.get("minimum"), schema.get("maximum")
    if (low, high) == INT64:
        return " (signed 64 bits)"
    if low is not None and high is not None:
        return f" ({_number(low)} to {_number(high)})"
    if low is not None:
        return f" ({_number(low)} or more)"
    return f" ({_number(high)} or less)" if high is not None else ""


def _number(value: float) -> str:
    if value == INT64[1]:
        return "2^63-1"
    if value == INT64[0]:
        return "-2^63"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _cell(text: str) -> str:
    """Text of a docstring as one Markdown line: Sphinx's roles (``:class:`Told```) and double backticks as plain
    code, ``|`` escaped for a table."""
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", text).replace("``", "`")
    return " ".join(text.split()).replace("|", "\\|")


# -- models ----------------------------------------------------------------------------------------------------------


def model_table(model: type[BaseModel], leaving: str = "") -> str:
    """A model as a heading, its docstring and a table of its fields: name, JSON type, description. A field with a
    default is marked by ``leaving``: ``"in"`` (a body or a client's message: it may be left out, and takes its
    default), ``"message"`` (a server's message: it may be absent, read as its default); ``""`` (an API answer,
    which holds every field) marks none."""
    schema = model.model_json_schema(ref_template="#/$defs/{model}")
    rows = ["| field | type | meaning |", "|---|---|---|"]
    required = set(schema.get("required", ()))
    for name, field in model.model_fields.items():
        kind = json_type(schema["properties"][name])
        default = _default(field.default_factory() if field.default_factory else field.default)  # type: ignore[call-arg]
        if name not in required and leaving == "in":
            kind += f"; optional, default `{default}`"
        elif name not in required and leaving == "message":
            kind += f"; may be absent (read `{default}`)"
        rows.append(f"| `{name}` | {_cell(kind)} | {_cell(field.description or '')} |")
    doc = _cell(model.__doc__ or "")
    return f"#### `{model.__name__}`\n\n{doc}\n\n" + "\n".join(rows) + "\n"


def _default(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if not isinstance(value, str) else f'"{value}"'


def undescribed() -> list[str]:
    """``Model.field`` of every field of the models described that has no description."""
    return [f"{m.__name__}.{name}" for m in (*CLIENT_MODELS, *SERVER_MODELS, *API_MODELS)
            for name, field in m.model_fields.items() if not (field.description or "").strip()]


def models_part(models: Iterable[type[BaseModel]], leaving: str = "") -> str:
    return "\n".join(model_table(m, "in" if issubclass(m, schemas._In) else leaving) for m in models)


# -- the routes of the API -------------------------------------------------------------------------------------------


def routes_part() -> str:
    """Every route of ``/api`` from the OpenAPI document: method and path, its parameters, its body and answer (the
    models above) with the status of success, and what it does (its docstring)."""
    from dreizehn.server.app import create_app
    from dreizehn.server.settings import Settings

    document = create_app(Settings(data_dir=Path("data"), _env_file=None)).openapi()  # type: ignore[call-arg]
    rows = ["| route | parameters | body | answer | what |", "|---|---|---|---|---|"]
    for path, methods in document["paths"].items():
        if not path.startswith("/api"):
            continue
        for method, operation in methods.items():
            params = ", ".join(f"`{p['name']}` ({p['in']}: {json_type(p['schema'])}"
                               + (f"; default `{p['schema']['default']}`" if "default" in p["schema"] else "") + ")"
                               for p in operation.get("parameters", ()))
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            status, answer = next((code, value) for code, value in operation["responses"].items()
                                  if code.startswith("2"))
            content = answer.get("content", {})
            media = [kind for kind in content if kind != "application/json"]  # a file's (a picture: image/svg+xml)
            answer_schema = content.get("application/json", {}).get("schema", {})
            said = f"{status}: {', '.join(media) if media else json_type(answer_schema)}"
            rows.append(f"| `{method.upper()} {path}` | {_cell(params) or '—'} | "
                        f"{json_type(body) if body else '—'} | {_cell(said)} | "
                        f"{_cell(operation.get('description', ''))} |")
    return "\n".join(rows) + "\n"


# -- refusals --------------------------------------------------------------------------------------------------------


def _templates() -> dict[str, Any]:
    """Every English template, the games' too (their catalogues join when they register, on importing dreizehn)."""
    import dreizehn  # noqa: F401
    from dreizehn.words import words

    catalogue: dict[str, Any] = words("en").catalogue()
    return catalogue


def _params(template: Any) -> list[str]:
    text = template[0] if isinstance(template, list) else str(template)
    names = [field.split(".")[0].split("[")[0] for _, field, _, _ in string.Formatter().parse(text) if field]
    return list(dict.fromkeys(names))


def engine_codes() -> list[str]:
    """The engine's refusal codes a client may be sent, each group of :func:`engine_refusals` expanded from the
    catalogues (a group ending in ``.`` is every key under it)."""
    catalogue = _templates()
    return [code for group, _ in engine_refusals() for code in _group(group, catalogue)]


def _group(group: str, catalogue: dict[str, Any]) -> list[str]:
    """The codes of a group of :func:`engine_refusals`: itself, or every catalogue key under a group ending in ``.``
    but the sentences for people (``<domain>.person.<rest>``), which are no codes."""
    if not group.endswith("."):
        return [group]
    return sorted(k for k in catalogue if k.startswith(group) and ".person." not in k)


def refusal_codes() -> set[str]:
    """Every refusal code the reference names."""
    return set(REFUSALS) | set(engine_codes())


def refusals_part() -> str:
    """The server's refusal codes (rule, where, when, parameters, English sentence), then the engine's."""
    catalogue = _templates()
    rows = ["| code | rule | where | when | parameters | English sentence |", "|---|---|---|---|---|---|"]
    for code, (rule, where, when) in sorted(REFUSALS.items()):
        template = catalogue[code]
        rows.append(f"| `{code}` | {rule} | {_cell(where)} | {_cell(when)} | "
                    f"{', '.join(f'`{p}`' for p in _params(template)) or '—'} | {_cell(_first(template))} |")
    rows += ["", "The engine's codes a client may be sent (the rule is the game's or the engine's, in the refusal's "
             "`rule`):", "", "| code | where | parameters | English sentence |", "|---|---|---|---|"]
    for group, where in engine_refusals():
        for code in _group(group, catalogue):
            template = catalogue[code]
            rows.append(f"| `{code}` | {_cell(where)} | {', '.join(f'`{p}`' for p in _params(template)) or '—'} | "
                        f"{_cell(_first(template))} |")
    return "\n".join(rows) + "\n"


def _first(template: Any) -> str:
    return str(template[0] if isinstance(template, list) else template)


# -- events ----------------------------------------------------------------------------------------------------------


def event_keys(game_id: str) -> list[str]:
    from dreizehn.core.wire import schema

    return [branch["properties"]["key"]["const"] for branch in schema(game_id)["$defs"]["event"]["oneOf"]]


def events_part() -> str:
    """Every game's events from its schema: each key with its parameters and their JSON types (``?``: sent only to
    some receivers, such as a drawn card to its drawer)."""
    import dreizehn
    from dreizehn.core.wire import schema

    parts = []
    for game_id in dreizehn.game_ids():
        cls = dreizehn.game_class(game_id)
        cards = frozenset(cls.card_type._texts)
        rows = ["| key | parameters |", "|---|---|"]
        for branch in schema(game_id)["$defs"]["event"]["oneOf"]:
            key = branch["properties"]["key"]["const"]
            rows.append(f"| `{key}` | {_cell(json_type(branch['properties']['params'], cards))} |")
        parts.append(f"#### {cls.title} (`{game_id}`)\n\n" + "\n".join(rows) + "\n")
    return "\n".join(parts)


# -- the pages -------------------------------------------------------------------------------------------------------

PARTS: dict[str, Callable[[], str]] = {
    "client-messages": lambda: models_part(CLIENT_MODELS, "in"),
    "server-messages": lambda: models_part(SERVER_MODELS, "message"),
    "api-routes": routes_part,
    "api-models": lambda: models_part(API_MODELS),
    "refusals": refusals_part,
    "events": events_part,
}
PAGES = ("docs/server.md", "docs/wire.md")


def written(text: str) -> str:
    """A page with each of its reference parts written anew."""
    out, at = [], 0
    for begin in BEGIN.finditer(text):
        end = text.index(END, begin.end())
        out += [text[at:begin.end()], "\n", PARTS[begin.group(1)](), "\n"]
        at = end
    return "".join(out) + text[at:]


def main(argv: list[str]) -> int:
    root = Path(argv[argv.index("--root") + 1]) if "--root" in argv else Path.cwd()
    stale = []
    for page in PAGES:
        path = root / page
        text = path.read_text(encoding="utf-8")
        new = written(text)
        if new != text:
            stale.append(page)
            if "--check" not in argv:
                path.write_text(new, encoding="utf-8")
    if stale:
        print(("stale: " if "--check" in argv else "written: ") + ", ".join(stale))
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
