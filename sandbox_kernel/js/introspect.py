"""Completion and inspection against the live JS context, without running the cell's code.

``completion.py`` tells what the cursor asks for (a ``Target``); here it is resolved in the
context one object at a time: before an object is handed to the prelude's ``introspection``
helpers (``host.compOwn``, ``compProto``, ``compNames``, ``compDescribe``), QuickJS is asked
whether it is a Proxy (``JS_IsProxy``, which runs no trap), and a Proxy ends the walk. The
helpers read own property descriptors and prototypes with builtins captured when the context
was made, call no getter but the prelude's own const accessors, and list a getter's name without
following it. Everything here runs on the JS worker thread inside ``JsInstance.guarded`` (a
deadline that interrupts the JS, should anything run long); a failing call answers nothing.
"""
from __future__ import annotations

import json

from . import binary
from .completion import Target
from .runtime import JsInstance

MAX_LEVELS = 64      # prototype levels walked at most
MAX_NAMES = 2000     # names gathered at most for one completion


class Unanswered(Exception):
    """A helper threw (or was interrupted): there is no answer."""


#: what ``member`` found
MISSING, GETTER = "missing", "getter"


def _int(n: int) -> int:
    return (binary.TAG_INT << 32) | (n & 0xFFFFFFFF)


def _bool(b: bool) -> int:
    return (binary.TAG_BOOL << 32) | int(b)


def _nullish(value: int) -> bool:
    return binary.tag_of(value) in (binary.TAG_NULL, binary.TAG_UNDEFINED)


class Introspector:
    def __init__(self, inst: JsInstance) -> None:
        self.inst = inst
        self.not_own = inst.host_value("notOwn")
        self.accessor = inst.host_value("accessor")

    # ------------------------------------------------------------------ primitives
    def _host(self, name: str, *args: int) -> int:
        value = self.inst.call_host(name, *args)
        if binary.tag_of(value) == binary.TAG_EXCEPTION:
            self.inst.drop_exception()
            raise Unanswered(name)
        return value

    def _text(self, value: int) -> str:
        try:
            text = self.inst.string_text(value)
        finally:
            self.inst.free_value(value)
        if text is None:
            raise Unanswered("not a string")
        return text

    def base(self, kind: str) -> int:
        js_kind = self.inst.new_string(kind)
        try:
            return self._host("compBase", js_kind)
        finally:
            self.inst.free_value(js_kind)

    def member(self, obj: int, name: str) -> tuple[str, int | None]:
        """Property ``name`` of ``obj`` (borrowed), looked up along the prototype chain:
        ("value", an owned JSValue), (GETTER, None) for an accessor whose getter was not run,
        (MISSING, None) when there is none or a Proxy stands in the way."""
        js_name = self.inst.new_string(name)
        level = self.inst.dup_value(obj)
        try:
            for _ in range(MAX_LEVELS):
                if self.inst.is_proxy(level):
                    return MISSING, None
                value = self._host("compOwn", level, js_name)
                if value == self.not_own:
                    self.inst.free_value(value)
                    parent = self._host("compProto", level)
                    self.inst.free_value(level)
                    level = parent
                    if _nullish(level):
                        return MISSING, None
                    continue
                if value == self.accessor:
                    self.inst.free_value(value)
                    return GETTER, None
                return "value", value
            return MISSING, None
        finally:
            self.inst.free_value(level)
            self.inst.free_value(js_name)

    def resolve(self, target: Target) -> int | None:
        """The value the target's chain leads to (owned), or None."""
        value = self.base(target.base)
        for name in target.chain:
            found, next_value = self.member(value, name)
            self.inst.free_value(value)
            if next_value is None:
                return None
            value = next_value
        return value

    # ------------------------------------------------------------------ answers
    def names(self, obj: int, prefix: str, limit: int = MAX_NAMES) -> dict[str, str]:
        """Property names of ``obj`` and its prototypes that start with ``prefix``: name ->
        kind ("f" function, "v" other value, "g" accessor), nearest level first."""
        found: dict[str, str] = {}
        js_prefix = self.inst.new_string(prefix)
        level = self.inst.dup_value(obj)
        try:
            for _ in range(MAX_LEVELS):
                if self.inst.is_proxy(level) or len(found) >= limit:
                    break
                text = self._text(self._host("compNames", level, js_prefix, _int(limit)))
                for item in json.loads("[" + text + "]"):
                    if isinstance(item, str) and item:
                        found.setdefault(item[1:], item[0])
                parent = self._host("compProto", level)
                self.inst.free_value(level)
                level = parent
                if _nullish(level):
                    break
        finally:
            self.inst.free_value(level)
            self.inst.free_value(js_prefix)
        return found

    def completions(self, target: Target, limit: int = MAX_NAMES) -> dict[str, str]:
        obj = self.resolve(target)
        if obj is None:
            return {}
        try:
            return self.names(obj, target.name, limit)
        finally:
            self.inst.free_value(obj)

    def describe(self, target: Target) -> str | None:
        """``expression: what it is`` for Shift-Tab, or None when there is no such property."""
        obj = self.resolve(target)
        if obj is None:
            return None
        try:
            found, value = self.member(obj, target.name)
        finally:
            self.inst.free_value(obj)
        if found == GETTER:
            return f"{target.expression}: an accessor property (its getter is not run to show it)"
        if value is None:
            return None
        if target.base != "global" and not self.inst.is_function(value):
            # ``"abc".length``: the chain started from a stand-in for the literal ("" here),
            # whose own values are not the literal's; its methods are
            self.inst.free_value(value)
            return None
        try:
            proxied = self.inst.is_proxy(value)
            cls = self._class_name(value) if not proxied else None
            js_cls = self.inst.new_string(cls or "")
            try:
                text = self._text(self._host("compDescribe", value, _bool(proxied), js_cls))
            finally:
                self.inst.free_value(js_cls)
        finally:
            self.inst.free_value(value)
        return f"{target.expression}: {text}"

    def _class_name(self, value: int) -> str | None:
        """The name of an object's constructor (``value.constructor.name``, read the same safe
        way), None for anything else."""
        if binary.tag_of(value) != binary.TAG_OBJECT:
            return None
        _, ctor = self.member(value, "constructor")
        if ctor is None:
            return None
        try:
            if binary.tag_of(ctor) != binary.TAG_OBJECT or self.inst.is_proxy(ctor):
                return None
            _, name = self.member(ctor, "name")
        finally:
            self.inst.free_value(ctor)
        if name is None:
            return None
        try:
            return self.inst.string_text(name)
        finally:
            self.inst.free_value(name)
