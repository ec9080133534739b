"""A JSON Schema validator for the tests of the wire's documents that decides as the published validator
(:class:`jsonschema.Draft202012Validator`) does, in a fraction of its time. A view carries its whole history, one
object for each action, so the views of a long Three Thirteen game were most of ``tests/core/test_wire.py``'s time.
Two keywords are answered otherwise:

- ``enum``: jsonschema compares the value with every member in turn (``_utils.equal``, a few type checks each), and
  cards and actions come from enums of 52 to 390 members. For a string, ``equal(member, value)`` is
  ``member == value`` (a string equals only an equal string), so the value is a member exactly when it is in the set
  of the enum's strings; any other value (a number, a list, an object, ``null``) goes to jsonschema's own ``enum``.
- ``items``: an item found valid under the items' schema before (the same schema object, an item of the same
  ``repr``, which tells lists from tuples and ``1`` from ``True`` and ``1.0``) is valid again; any other item is
  checked by jsonschema as before. A schema's verdict on an instance depends on nothing else here: the wire's
  schemas have no ``$ref``, ``$dynamicRef`` or ``unevaluated*`` keywords (:func:`test_no_keyword_looks_outside` in
  ``tests/core/test_wire.py`` holds them to that).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jsonschema
from jsonschema import _keywords as _typed_keywords

_keywords: Any = _typed_keywords  # its stubs say the keywords return None; they are generators of errors

_STRINGS: dict[int, tuple[list[Any], frozenset[str]]] = {}
"""The set of each enum's strings, by the enum list's id (the list is kept with it, so its id is never reused)."""


def _strings(enums: list[Any]) -> frozenset[str]:
    found = _STRINGS.get(id(enums))
    if found is None or found[0] is not enums:
        found = _STRINGS[id(enums)] = (enums, frozenset(e for e in enums if isinstance(e, str)))
    return found[1]


def _enum(validator: Any, enums: Any, instance: Any, schema: Any) -> Iterator[jsonschema.ValidationError]:
    if isinstance(instance, str) and isinstance(enums, list):
        if instance not in _strings(enums):
            yield jsonschema.ValidationError(f"{instance!r} is not one of {enums!r}")
        return
    yield from _keywords.enum(validator, enums, instance, schema)


_VALID: dict[tuple[int, str], Any] = {}
"""The items found valid: (the items' schema's id, the item's ``repr``) to the schema (kept, so its id is never
reused)."""


def _items(validator: Any, items: Any, instance: Any, schema: Any) -> Iterator[jsonschema.ValidationError]:
    if not isinstance(items, dict) or "prefixItems" in schema or not validator.is_type(instance, "array"):
        yield from _keywords.items(validator, items, instance, schema)
        return
    for index, item in enumerate(instance):
        key = (id(items), repr(item))
        if _VALID.get(key) is items:
            continue
        errors = list(validator.descend(instance=item, schema=items, path=index))
        if errors:
            yield from errors
        else:
            _VALID[key] = items


OUTSIDE = frozenset({"$ref", "$dynamicRef", "unevaluatedItems", "unevaluatedProperties"})
"""Keywords whose verdict on an item depends on more than the item and its schema."""

_extend: Any = jsonschema.validators.extend
Validator: Any = _extend(jsonschema.Draft202012Validator, validators={"enum": _enum, "items": _items})
"""Draft 2020-12 with the set-membership ``enum`` and the remembered ``items``: ``Validator(schema).validate(doc)``
raises :class:`jsonschema.ValidationError` exactly where ``jsonschema.Draft202012Validator(schema)`` does, for a
schema without the keywords of :data:`OUTSIDE`."""
