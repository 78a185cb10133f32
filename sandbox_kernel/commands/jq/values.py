"""jq's values (JSON as Python: None, bool, float, str, list, dict): type names, order,
truthiness, and the exceptions evaluation raises."""
from __future__ import annotations

import math
from typing import Any

#: What an array element takes (its pointer, a number's object, the list's spare room): values
#: built big are checked against the command's memory limit before they are made (memory.room,
#: memory.need), so ``. + .`` doubling to gigabytes is refused, not attempted.
ELEMENT_COST = 40


class JqError(Exception):
    """A jq runtime error carrying the error value (usually a message string)."""

    def __init__(self, value: Any) -> None:
        super().__init__(value)
        self.value = value


END = object()


def throw_into(gen, error: JqError) -> Any:
    """Raise ``error`` inside ``gen`` where it stopped: the next value it gives (a try there
    handled it), END, or the error again."""
    throw = getattr(gen, "throw", None)
    if throw is None:  # a plain iterator has no try in it
        raise error
    try:
        return throw(error)
    except StopIteration:
        return END


def feed(gen, body):
    """``for v in gen: yield from body(v)``, as jq 1.6 runs it: an error raised downstream of
    v -- in body(v), or further on, thrown in by a consumer -- goes back into gen, where a try
    that produced v catches it (and may go on)."""
    v = next(gen, END)
    while v is not END:
        try:
            yield from body(v)
        except JqError as e:
            v = throw_into(gen, e)
            continue
        v = next(gen, END)


class HaltSignal(Exception):
    def __init__(self, status: int, message: Any = None, has_message: bool = False) -> None:
        super().__init__(status)
        self.status = status
        self.message = message
        self.has_message = has_message


def type_name(v: Any) -> str:
    if v is None:
        return "null"
    if v is True or v is False:
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def sort_key(v: Any):
    if v is None:
        return (0,)
    if v is False:
        return (1,)
    if v is True:
        return (2,)
    if isinstance(v, (int, float)):
        return (3, v if v == v else -math.inf)
    if isinstance(v, str):
        return (4, v)
    if isinstance(v, list):
        return (5, tuple(sort_key(x) for x in v))
    keys = sorted(v)
    return (6, tuple(keys), tuple(sort_key(v[k]) for k in keys))


def equal(a: Any, b: Any) -> bool:
    return sort_key(a) == sort_key(b)


def is_label(value: Any, token: dict) -> bool:
    """Whether an error's value is the label ``token`` ({"__jq": n}) a break raised: jq 1.6
    compares them as values (``. == $label``), so an equal object made elsewhere counts."""
    if value is token:
        return True
    if type(value) is not dict or len(value) != 1:
        return False
    n = value.get("__jq", MISSING)
    return is_number(n) and n == token["__jq"]


def truthy(v: Any) -> bool:
    return not (v is None or v is False)


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


MISSING = object()  # no value (an exhausted input, an empty update)
