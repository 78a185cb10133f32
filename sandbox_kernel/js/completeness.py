"""Is a `%%js` cell complete? A small tokenizer, never an evaluation.

``is_complete(code)`` -> ``("complete" | "incomplete" | "invalid", indent)``, the answer a
Jupyter ``is_complete_request`` wants. It knows strings, template literals with nested
``${...}``, comments, and regular expression literals (told from division by the token before
the ``/``, as a JS parser's context would). Unclosed brackets, strings, templates or block
comments are "incomplete"; a closer that matches nothing, or a newline in a quoted string, is
"invalid"; everything else is "complete" (syntax errors are the engine's to report).
"""
from __future__ import annotations

import bisect

INDENT = "  "
_PAIRS = {")": "(", "]": "[", "}": "{"}
# after these words a "/" starts a regular expression, not a division
_REGEX_AFTER_WORDS = frozenset("""return typeof instanceof in of new delete void throw case do else
yield await""".split())
_STATEMENT_HEADS = frozenset(["if", "while", "for", "with"])
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")


class _Scan:
    def __init__(self, code: str) -> None:
        self.code = code
        self.i = 0
        # open "(", "[", "{", "h" (the "(" of an if/while/for/with head), "`" (inside a
        # template), "${" (code inside a template)
        self.stack: list[str] = []
        self.opened_on: list[int] = []  # the line each stack entry was opened on
        self.newlines = [k for k, ch in enumerate(code) if ch == "\n"]
        self.regex_ok = True          # whether a "/" here would start a regular expression
        self.last_word = ""           # the word just before this token ("" after any other)

    def run(self) -> tuple[str, str]:
        code, n = self.code, len(self.code)
        while self.i < n:
            if self.stack and self.stack[-1] == "`":
                if not self._template():
                    return "incomplete", ""
                continue
            c = code[self.i]
            if c in " \t\r\n\f\v\ufeff\u00a0\u2028\u2029":
                self.i += 1
                continue
            if code.startswith("//", self.i) or (self.i == 0 and code.startswith("#!")):
                end = code.find("\n", self.i)
                self.i = n if end < 0 else end
                continue
            if code.startswith("/*", self.i):
                end = code.find("*/", self.i + 2)
                if end < 0:
                    return "incomplete", self._indent()
                self.i = end + 2
                continue
            word, self.last_word = self.last_word, ""
            if c in "'\"":
                state = self._string(c)
                if state != "complete":
                    return state, self._indent()
                self.regex_ok = False
            elif c == "`":
                self._push("`")
                self.i += 1
            elif c == "/":
                if not (self.regex_ok and self._regex()):
                    self.i += 1  # a division (or /=): an operand follows
                    self.regex_ok = True
            elif c in "([{":
                # `if (x) /re/` : after the head of a statement, a "/" starts a regex
                self._push("h" if c == "(" and word in _STATEMENT_HEADS else c)
                self.i += 1
                self.regex_ok = True
            elif c in ")]}":
                top = self.stack[-1] if self.stack else None
                if c == "}" and top == "${":
                    self.stack[-1] = "`"   # back inside the template
                    self.i += 1
                    continue
                if top != _PAIRS[c] and not (c == ")" and top == "h"):
                    return "invalid", ""
                self._pop()
                self.i += 1
                # `a[0] / 2`, `f(x) / 2` divide; after a block `}` or a statement head a
                # statement (maybe a regex) starts
                self.regex_ok = c == "}" or top == "h"
            elif c in _WORD_CHARS or ord(c) > 127:
                start = self.i
                while self.i < n and (code[self.i] in _WORD_CHARS or ord(code[self.i]) > 127):
                    self.i += 1
                if code[start].isdigit() and code.startswith(".", self.i):  # 1.5, 1.e3
                    self.i += 1
                    continue
                self.last_word = code[start:self.i]
                self.regex_ok = self.last_word in _REGEX_AFTER_WORDS
                continue
            elif code.startswith(("++", "--"), self.i):
                self.i += 2  # x++ / 2 divides; ++/re/ is nonsense either way
            else:
                self.i += 1  # any other punctuator: an operand (maybe a regex) follows
                self.regex_ok = True
        if self.stack:
            return "incomplete", self._indent()
        return "complete", ""

    def _push(self, kind: str) -> None:
        self.stack.append(kind)
        self.opened_on.append(bisect.bisect(self.newlines, self.i))

    def _pop(self) -> None:
        self.stack.pop()
        self.opened_on.pop()

    def _indent(self) -> str:
        """One level per line that left a bracket open (``({a: [`` is one level)."""
        return INDENT * len({line for kind, line in zip(self.stack, self.opened_on) if kind in "h([{"})

    def _string(self, quote: str) -> str:
        code, n = self.code, len(self.code)
        i = self.i + 1
        while i < n:
            c = code[i]
            if c == "\\":
                i += 2   # an escape, or a line continuation
            elif c == quote:
                self.i = i + 1
                return "complete"
            elif c == "\n":
                return "invalid"   # unterminated string literal
            else:
                i += 1
        return "incomplete"

    def _template(self) -> bool:
        """Inside a template literal: up to its end (pop) or a ``${`` (push). False at EOF."""
        code, n = self.code, len(self.code)
        i = self.i
        while i < n:
            c = code[i]
            if c == "\\":
                i += 2
            elif c == "`":
                self._pop()
                self.i = i + 1
                self.regex_ok = False
                return True
            elif c == "$" and code.startswith("{", i + 1):
                self.stack[-1] = "${"
                self.i = i + 2
                self.regex_ok = True
                return True
            else:
                i += 1
        self.i = n
        return False

    def _regex(self) -> bool:
        """A regular expression literal from ``/`` to its closing ``/`` and flags; False (and
        nothing consumed) when the line ends first: then the ``/`` was a division."""
        code, n = self.code, len(self.code)
        i, in_class = self.i + 1, False
        if code.startswith(("/", "*"), i):
            return False
        while i < n:
            c = code[i]
            if c == "\n":
                return False
            if c == "\\":
                i += 2
                continue
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                i += 1
                while i < n and code[i] in _WORD_CHARS:
                    i += 1
                self.i = i
                self.regex_ok = False
                return True
            i += 1
        return False


def is_complete(code: str) -> tuple[str, str]:
    """Jupyter's completeness verdict for JS source (a leading ``%%js`` line is skipped)."""
    if code.startswith("%%"):
        end = code.find("\n")
        code = "" if end < 0 else code[end + 1:]
    return _Scan(code).run()
