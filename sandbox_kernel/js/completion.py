"""What Tab or Shift-Tab asks for at a cursor in a `%%js` cell: a small scanner, never an evaluation.

``completion_target(code, cursor)`` and ``inspection_target(code, cursor)`` give a ``Target``:
the value to start from (the global object, or the prototype a literal stands for: ``"s".``,
``[1].``, ``1.5.``, ``/x/.``), the member names to follow from it and the name being typed or
inspected. Only plain identifier/member chains qualify (``a.b.c``, ``a?.b``): after a call
``f().``, a computed member ``a[i].``, ``this.`` or a parenthesised expression there is nothing
to complete, so nothing the cell wrote ever runs to answer. Inside a string, a comment, a
template literal's text or a regular expression there is nothing either. ``introspect.py``
resolves the target in the live context.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

#: the words of the language a bare name may complete to
KEYWORDS = tuple(sorted("""await async break case catch class const continue debugger default delete do else
export extends false finally for function if import in instanceof let new null of return static super switch
this throw true try typeof undefined var void while with yield""".split()))
#: words after which a name is being declared, not used: nothing to complete
_DECLARING = frozenset({"function", "class", "let", "const", "var", "catch"})
#: words that are not values whose members could be completed (``this.``, ``super.``)
_NOT_VALUES = frozenset(KEYWORDS) - {"undefined"}
#: words after which ``[`` starts an array literal (after any other name it is a computed member)
_LITERAL_AFTER = frozenset({"return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
                            "case", "do", "else", "yield", "await", "extends"})
#: after these words a ``/`` starts a regular expression
_REGEX_AFTER = _LITERAL_AFTER
MAX_CHAIN = 32     # member names followed at most (``a.b.c...``)
MAX_NAME = 512     # longest name looked up
MAX_EXPRESSION = 200  # the expression's text shown in an inspection's first line

_IDENT = re.compile(r"(?:[^\W\d]|\$)[\w$]*")
_NUMBER = re.compile(r"0[xXoObB][\da-fA-F_]*n?|(?:\d[\d_]*\.?[\d_]*|\.\d[\d_]*)(?:[eE][+-]?\d+)?n?")
_SPACE = re.compile(r"\s+")
_PUNCT3 = ("...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=")
_PUNCT2 = ("?.", "=>", "==", "!=", "<=", ">=", "&&", "||", "??", "++", "--", "+=", "-=", "*=", "/=", "%=",
           "&=", "|=", "^=", "**", "<<", ">>")


@dataclass
class Token:
    kind: str        # "ident", "num", "str" (also a whole template literal), "regex", "punct"
    text: str
    start: int
    end: int
    #: for ")", "]", "}": the index of the token that opened it; for the last piece of a template
    #: literal with substitutions: the index of its first piece
    opener: int | None = None


@dataclass(frozen=True)
class Target:
    #: what the chain starts from: "global", or the literal a value stands for:
    #: "string", "number", "bigint", "array", "regexp"
    base: str
    #: member names to follow from the base, in order
    chain: tuple[str, ...]
    #: the name typed so far (completion) or the name inspected
    name: str
    #: where ``name`` starts in the code (what a completion replaces)
    start: int
    #: the text of the whole expression (for an inspection's first line)
    expression: str


def scan(code: str) -> tuple[list[Token], str, list[int]]:
    """The tokens of ``code``, the state at its end ("code", or "string", "comment",
    "template", "regex" when it ends inside one) and the indices of the brackets still open."""
    tokens: list[Token] = []
    opened: list[int] = []       # indices of open "(", "[", "{" and template pieces ending in "${"
    i, n = 0, len(code)

    def regex_allowed() -> bool:
        if not tokens:
            return True
        last = tokens[-1]
        if last.kind == "ident":
            return last.text in _REGEX_AFTER
        if last.kind in ("num", "str", "regex"):
            return False
        return last.text not in (")", "]", "}")

    def template_from(j: int) -> tuple[int, str]:
        """From inside a template literal's text: (index after it, "end" | "subst" | "open")."""
        while j < n:
            c = code[j]
            if c == "\\":
                j += 2
            elif c == "`":
                return j + 1, "end"
            elif c == "$" and code.startswith("${", j):
                return j + 2, "subst"
            else:
                j += 1
        return n, "open"

    while i < n:
        m = _SPACE.match(code, i)
        if m:
            i = m.end()
            continue
        c = code[i]
        if code.startswith("//", i) or (i == 0 and code.startswith("#!")):
            j = code.find("\n", i)
            if j < 0:
                return tokens, "comment", opened
            i = j
            continue
        if code.startswith("/*", i):
            j = code.find("*/", i + 2)
            if j < 0:
                return tokens, "comment", opened
            i = j + 2
            continue
        start = i
        if c in "'\"":
            j = i + 1
            while j < n and code[j] != c and code[j] != "\n":
                j += 2 if code[j] == "\\" else 1
            if j >= n:
                return tokens, "string", opened
            i = j + 1
            tokens.append(Token("str", code[start:i], start, i))
            continue
        if c == "`" or (c == "}" and opened and tokens[opened[-1]].kind == "str"):
            first = opened.pop() if c == "}" else None
            i, how = template_from(i + 1)
            if how == "open":
                return tokens, "template", opened
            token = Token("str", code[start:i], start, i)
            if first is not None:
                token.opener = tokens[first].opener if tokens[first].opener is not None else first
            tokens.append(token)
            if how == "subst":
                # the piece opens code up to its "}"; it remembers the template's first piece
                token.opener = token.opener if first is not None else len(tokens) - 1
                opened.append(len(tokens) - 1)
            continue
        if c == "/" and regex_allowed():
            j, in_class = i + 1, False
            while j < n and code[j] != "\n":
                if code[j] == "\\":
                    j += 2
                    continue
                if code[j] == "[":
                    in_class = True
                elif code[j] == "]":
                    in_class = False
                elif code[j] == "/" and not in_class:
                    break
                j += 1
            if j >= n:
                return tokens, "regex", opened
            j += 1
            while j < n and (code[j].isalnum() or code[j] in "_$"):
                j += 1
            i = j
            tokens.append(Token("regex", code[start:i], start, i))
            continue
        if c.isdigit() or (c == "." and i + 1 < n and code[i + 1].isdigit()):
            m = _NUMBER.match(code, i)
            i = m.end() if m and m.end() > i else i + 1
            tokens.append(Token("num", code[start:i], start, i))
            continue
        m = _IDENT.match(code, i)
        if m:
            i = m.end()
            tokens.append(Token("ident", m.group(), start, i))
            continue
        text = next((p for p in _PUNCT3 if code.startswith(p, i)), None) \
            or next((p for p in _PUNCT2 if code.startswith(p, i)), None) or c
        if text == "?." and i + 2 < n and code[i + 2].isdigit():
            text = "?"  # a ? .5 : b
        i += len(text)
        token = Token("punct", text, start, i)
        if text in "([{":
            opened.append(len(tokens))
        elif text in ")]}" and opened and tokens[opened[-1]].text == {")": "(", "]": "[", "}": "{"}[text]:
            token.opener = opened.pop()
        tokens.append(token)
    return tokens, "code", opened


def _array_literal(tokens: list[Token], opener: int) -> bool:
    """Whether the "[" at ``opener`` starts an array literal (not a computed member)."""
    if opener == 0:
        return True
    before = tokens[opener - 1]
    if before.kind == "ident":
        return before.text in _LITERAL_AFTER
    if before.kind in ("num", "str", "regex"):
        return False
    return before.text not in (")", "]", "}")


def _tagged(tokens: list[Token], k: int) -> bool:
    """Whether the template literal ending with token ``k`` is tagged (a call)."""
    first = tokens[k].opener if tokens[k].opener is not None else k
    if not tokens[first].text.startswith("`") or first == 0:
        return False
    before = tokens[first - 1]
    return (before.kind == "ident" and before.text not in _LITERAL_AFTER) or before.text in (")", "]")


def _target(code: str, tokens: list[Token], end: int) -> Target | None:
    """The chain that ends at ``end`` (the last of ``tokens`` ends there or before it)."""
    k = len(tokens)
    name, start = "", end
    if k and tokens[-1].end == end and tokens[-1].kind != "punct":
        if tokens[-1].kind != "ident":
            return None  # typing a number, a string...
        name, start = tokens[-1].text, tokens[-1].start
        k -= 1
        if k and tokens[k - 1].end == start and tokens[k - 1].kind in ("num", "str", "regex"):
            return None  # 1.toFixed, "a"b: not a chain
    chain: list[str] = []
    base = "global"
    first = start
    while k and tokens[k - 1].text in (".", "?."):
        k -= 1
        if not k:
            return None
        t = tokens[k - 1]
        first = t.start
        if t.kind == "ident":
            if t.text in _NOT_VALUES:
                return None  # this., super., new.target
            chain.append(t.text)
            k -= 1
            if len(chain) > MAX_CHAIN:
                return None
            continue
        if t.kind == "str":
            if _tagged(tokens, k - 1):
                return None
            base = "string"
            if t.opener is not None:
                first = tokens[t.opener].start
        elif t.kind == "num":
            base = "bigint" if t.text.endswith("n") else "number"
        elif t.kind == "regex":
            base = "regexp"
        elif t.text == "]" and t.opener is not None and _array_literal(tokens, t.opener):
            base = "array"
            first = tokens[t.opener].start
        else:
            return None  # a call, a computed member, a parenthesised expression, an object literal
        k -= 1
        break
    else:
        if k and (tokens[k - 1].text in _DECLARING or tokens[k - 1].text == "#"):
            return None
    if len(name) > MAX_NAME or any(len(part) > MAX_NAME for part in chain):
        return None
    chain.reverse()
    return Target(base, tuple(chain), name, start, code[first:end][:MAX_EXPRESSION])


def completion_target(code: str, cursor: int) -> Target | None:
    """What Tab at ``cursor`` completes: the name before it (maybe ""), after a chain."""
    cursor = max(0, min(cursor, len(code)))
    tokens, state, _ = scan(code[:cursor])
    if state != "code":
        return None
    return _target(code, tokens, cursor)


def inspection_target(code: str, cursor: int) -> Target | None:
    """What Shift-Tab at ``cursor`` asks about: the name under (or just before) the cursor with
    the chain before it; elsewhere, inside a call's parentheses, the function called."""
    cursor = max(0, min(cursor, len(code)))
    end = cursor
    while end < len(code) and (code[end].isalnum() or code[end] in "_$"):
        end += 1
    tokens, state, opened = scan(code[:end])
    if state != "code":
        return None
    target = _target(code, tokens, end)
    if target is not None and target.name and target.name not in KEYWORDS:
        return target
    for index in reversed(opened):
        if tokens[index].text == "(":
            if index and tokens[index - 1].kind == "ident" and tokens[index - 1].text not in KEYWORDS:
                callee = tokens[index - 1]
                target = _target(code, tokens[:index], callee.end)
                return target if target is not None and target.name else None
            return None
    return None
