"""REPL rewriting of a cell so its top-level declarations behave like a console's.

QuickJS (like any engine outside a REPL mode) refuses to re-declare a top-level ``let``,
``const`` or ``class`` in a later script, and a ``let`` whose initialiser threw stays in its
temporal dead zone for ever. People re-run cells all the time, so top-level declarations are
turned into ``var`` (``const`` -> ``var``, padded so columns stay put; ``class C`` ->
``var C = class C``), and static ``import`` statements, which scripts cannot contain, into
``var ... = await import(...)``. Line numbers are preserved. Only the top level is touched:
a light tokenizer skips strings, template literals, comments, regular expressions and
bracketed code. ``prepare_cell`` also lists the names each cell declares, so the engine can
keep a top-level ``const`` constant (see ``declareCell`` in prelude.js) and let a re-run or a
later ``let``/``var`` declare it again.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from ..chars import isdigits

_IDENT = re.compile(r"[A-Za-z_$\u0080-\uffff][\w$\u0080-\uffff]*")
_SPACE = re.compile(r"\s+")
# after these tokens a `/` starts a regular expression
_REGEX_AFTER_WORDS = {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
                      "throw", "case", "do", "else", "yield", "await"}
_STATEMENT_ENDERS = {";", "}", None}


class _Token:
    __slots__ = ("kind", "text", "start", "end", "depth", "newline_before")

    def __init__(self, kind, text, start, end, depth, newline_before):
        self.kind, self.text, self.start, self.end = kind, text, start, end
        self.depth, self.newline_before = depth, newline_before


def tokenize(src: str) -> list[_Token]:
    """Identifiers, punctuators and literals with their bracket depth (0 = top level)."""
    tokens: list[_Token] = []
    i, n, depth = 0, len(src), 0
    newline = False
    templates: list[int] = []  # depth at which each open `${` of a template started
    prev: _Token | None = None

    def regex_allowed() -> bool:
        if prev is None:
            return True
        if prev.kind == "ident":
            return prev.text in _REGEX_AFTER_WORDS
        if prev.kind in ("num", "str", "regex", "template"):
            return False
        return prev.text not in (")", "]", "}")

    def scan_template(j: int) -> tuple[int, bool]:
        """From inside a template literal: index after its end (True) or after a `${` (False)."""
        while j < n:
            c = src[j]
            if c == "\\":
                j += 2
            elif c == "`":
                return j + 1, True
            elif c == "$" and src.startswith("${", j):
                return j + 2, False
            else:
                j += 1
        return n, True

    while i < n:
        c = src[i]
        m = _SPACE.match(src, i)
        if m:
            newline = newline or "\n" in m.group()
            i = m.end()
            continue
        if src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
            continue
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            if "\n" in src[i:j if j >= 0 else n]:
                newline = True
            i = n if j < 0 else j + 2
            continue
        start = i
        if c in "'\"":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            i = min(n, j + 1)
            kind = "str"
        elif c == "`":
            i, closed = scan_template(i + 1)
            if not closed:
                templates.append(depth)
                depth += 1
            kind = "template"
        elif c == "}" and templates and depth - 1 == templates[-1]:
            templates.pop()
            depth -= 1
            i, closed = scan_template(i + 1)
            if not closed:
                templates.append(depth)
                depth += 1
            kind = "template"
        elif c == "/" and regex_allowed():
            j, in_class = i + 1, False
            while j < n and src[j] != "\n":
                if src[j] == "\\":
                    j += 2
                    continue
                if src[j] == "[":
                    in_class = True
                elif src[j] == "]":
                    in_class = False
                elif src[j] == "/" and not in_class:
                    break
                j += 1
            j += 1
            while j < n and (src[j].isalnum() or src[j] in "_$"):
                j += 1
            i = j
            kind = "regex"
        elif isdigits(c) or (c == "." and i + 1 < n and isdigits(src[i + 1])):
            m = re.compile(r"(0[xXoObB][0-9a-fA-F_]+n?|[0-9_]*\.?[0-9_]+(?:[eE][+-]?[0-9]+)?n?)").match(src, i)
            i = m.end() if m and m.end() > i else i + 1
            kind = "num"
        elif (m := _IDENT.match(src, i)):
            i = m.end()
            kind = "ident"
        else:
            i += 1
            kind = "punct"
            if c in "([{":
                tokens.append(_Token(kind, c, start, i, depth, newline))
                depth += 1
                prev, newline = tokens[-1], False
                continue
            if c in ")]}":
                depth = max(0, depth - 1)
        tokens.append(_Token(kind, src[start:i], start, i, depth, newline))
        prev, newline = tokens[-1], False
    return tokens


def _statement_start(tokens: list[_Token], k: int) -> bool:
    prev = tokens[k - 1] if k > 0 else None
    if prev is None or prev.text in (";", "}"):
        return True
    # a line break ends a statement unless the previous token is an operator expecting more
    return tokens[k].newline_before and (prev.kind != "punct" or prev.text in (")", "]"))


def _import_clause(clause: str) -> tuple[str | None, str | None, list[tuple[str, str]]]:
    """(default name, namespace name, [(imported, local)]) of ``X, {a as b}`` / ``* as ns``."""
    default = namespace = None
    named: list[tuple[str, str]] = []
    rest = clause.strip()
    m = re.match(r"^([A-Za-z_$][\w$]*)\s*(,\s*)?", rest)
    if m and not rest.startswith("*") and not rest.startswith("{"):
        default = m.group(1)
        rest = rest[m.end():].strip()
    m = re.match(r"^\*\s*as\s+([A-Za-z_$][\w$]*)", rest)
    if m:
        namespace = m.group(1)
    elif rest.startswith("{"):
        body = rest[1:rest.rfind("}")]
        for part in body.split(","):
            part = part.strip()
            if not part:
                continue
            pm = re.match(r"^(\S+)\s+as\s+(\S+)$", part)
            named.append((pm.group(1), pm.group(2)) if pm else (part, part))
    return default, namespace, named


def _import_code(clause: str | None, module: str, attributes: str | None = None) -> str:
    target = f"await import({module}, {{ with: {attributes} }})" if attributes else f"await import({module})"
    if clause is None:
        return f"{target};"
    default, namespace, named = _import_clause(clause)
    if namespace:
        code = f"var {namespace} = {target}"
        if default:
            code += f", {default} = {namespace}.default"
        return code + ";"
    fields = ([f"default: {default}"] if default else []) + [
        imp if imp == local else f"{imp}: {local}" for imp, local in named]
    return f"var {{ {', '.join(fields)} }} = {target};"


def _skip_to_comma(tokens: list[_Token], j: int, depth: int) -> int:
    """Index of the next `,` at ``depth`` or of the token closing that depth."""
    while j < len(tokens) and tokens[j].depth >= depth:
        if tokens[j].depth == depth and tokens[j].text == ",":
            return j
        j += 1
    return j


def _binding_names(tokens: list[_Token], j: int, names: list[str]) -> int:
    """Add the names bound by the identifier or destructuring pattern at ``tokens[j]``;
    returns the index after it."""
    if j >= len(tokens):
        return j
    t = tokens[j]
    if t.kind == "ident":
        names.append(t.text)
        return j + 1
    if t.text not in ("[", "{"):
        return j
    inner, j = t.depth + 1, j + 1
    while j < len(tokens) and tokens[j].depth >= inner:
        while j < len(tokens) and tokens[j].text == ".":  # `...rest`
            j += 1
        if j >= len(tokens) or tokens[j].depth < inner or tokens[j].text == ",":
            j += 1
            continue
        if t.text == "{":
            key = tokens[j]
            if key.text == "[":  # computed key: skip to its `]`
                j += 1
                while j < len(tokens) and tokens[j].depth > key.depth:
                    j += 1
            if j + 1 < len(tokens) and tokens[j + 1].text == ":":
                j = _binding_names(tokens, j + 2, names)
            elif key.kind == "ident":
                names.append(key.text)
        else:
            j = _binding_names(tokens, j, names)
        j = _skip_to_comma(tokens, j, inner) + 1  # past a default value and the comma
    return j


def _declarator_names(tokens: list[_Token], j: int) -> list[str]:
    """Names declared by `let`/`const`/`var` declarators starting at ``tokens[j]``."""
    names: list[str] = []
    while j < len(tokens):
        j = _binding_names(tokens, j, names)
        # skip the initialiser: up to a `,` at the top level, or the statement's end
        while j < len(tokens) and not (tokens[j].depth == 0 and tokens[j].text in (",", ";")):
            if tokens[j].depth == 0 and tokens[j].newline_before and _statement_start(tokens, j):
                return names
            j += 1
        if j >= len(tokens) or tokens[j].text == ";":
            return names
        j += 1
    return names


@dataclass
class Cell:
    source: str                                          # the rewritten cell
    consts: list[str] = field(default_factory=list)      # names of its top-level `const`s
    declared: list[str] = field(default_factory=list)    # its other top-level let/var/class/import names


def prepare_cell(src: str) -> Cell:
    """The rewritten cell and the names it declares at the top level."""
    tokens = tokenize(src)
    cell = Cell(src)
    edits: list[tuple[int, int, str]] = []  # (start, end, replacement)
    k = 0
    while k < len(tokens):
        t = tokens[k]
        if t.depth != 0 or t.kind != "ident" or not _statement_start(tokens, k):
            k += 1
            continue
        nxt = tokens[k + 1] if k + 1 < len(tokens) else None
        if t.text == "export" and nxt is not None and nxt.text in ("let", "const", "var", "function", "class", "async"):
            edits.append((t.start, nxt.start, ""))
            k += 1
            t, nxt = nxt, tokens[k + 1] if k + 1 < len(tokens) else None
        if t.text in ("let", "const") and nxt is not None and (nxt.kind == "ident" or nxt.text in ("[", "{")):
            if nxt.text not in ("in", "of", "instanceof"):
                edits.append((t.start, t.end, "var" + " " * (len(t.text) - 3)))
                (cell.consts if t.text == "const" else cell.declared).extend(_declarator_names(tokens, k + 1))
                # `let a, b;` re-run must reset a and b, as a fresh `let` would
                names, j = [], k + 1
                while j < len(tokens) and tokens[j].kind == "ident" and (j == k + 1 or not tokens[j].newline_before):
                    names.append(tokens[j])
                    if j + 1 < len(tokens) and tokens[j + 1].text == "," and not tokens[j + 1].newline_before:
                        j += 2
                        continue
                    j += 1
                    break
                ends = j >= len(tokens) or tokens[j].text == ";" or tokens[j].newline_before or tokens[j].text == "}"
                if names and ends and (j - k - 1) == 2 * len(names) - 1:
                    for name in names:
                        edits.append((name.end, name.end, " = undefined"))
        elif t.text == "var" and nxt is not None and (nxt.kind == "ident" or nxt.text in ("[", "{")):
            cell.declared.extend(_declarator_names(tokens, k + 1))
        elif t.text == "class" and nxt is not None and nxt.kind == "ident" and nxt.text != "extends":
            cell.declared.append(nxt.text)
            j = k + 2
            while j < len(tokens) and not (tokens[j].text == "{" and tokens[j].depth == 0):
                j += 1
            close = j + 1
            while close < len(tokens) and not (tokens[close].text == "}" and tokens[close].depth == 0):
                close += 1
            if close < len(tokens):
                edits.append((t.start, t.start, f"var {nxt.text} = "))
                edits.append((tokens[close].end, tokens[close].end, ";"))
                k = close
        elif t.text == "import" and nxt is not None and nxt.text not in ("(", "."):
            j = k + 1
            clause_start = nxt.start
            module_tok = None
            clause = None
            if nxt.kind == "str":
                module_tok = nxt
            else:
                while j < len(tokens) and not (
                    tokens[j].kind == "ident" and tokens[j].text == "from" and tokens[j].depth == 0
                ):
                    j += 1
                if j + 1 < len(tokens) and tokens[j + 1].kind == "str":
                    clause = src[clause_start:tokens[j].start]
                    module_tok = tokens[j + 1]
                    j += 1
            if module_tok is not None:
                end_tok = j if module_tok is not nxt else k + 1
                end = tokens[end_tok].end
                after = end_tok + 1
                # import attributes: with { type: 'json' }
                attributes = None
                if (
                    after < len(tokens)
                    and tokens[after].text in ("with", "assert")
                    and after + 1 < len(tokens)
                    and tokens[after + 1].text == "{"
                ):
                    close = after + 2
                    while close < len(tokens) and not (tokens[close].text == "}" and tokens[close].depth == 0):
                        close += 1
                    if close < len(tokens):
                        attributes = src[tokens[after + 1].start:tokens[close].end]
                        end = tokens[close].end
                        after = close + 1
                if after < len(tokens) and tokens[after].text == ";":
                    end = tokens[after].end
                if clause is not None:
                    default, namespace, named = _import_clause(clause)
                    cell.declared.extend([n for n in (default, namespace) if n] + [local for _, local in named])
                replaced = src[t.start:end]
                code = _import_code(clause, module_tok.text, attributes) + "\n" * replaced.count("\n")
                edits.append((t.start, end, code))
                while k < len(tokens) and tokens[k].start < end:
                    k += 1
                continue
        k += 1
    if not edits:
        return cell
    out, pos = [], 0
    for start, end, text in sorted(edits, key=lambda e: (e[0], e[1])):
        out.append(src[pos:start])
        out.append(text)
        pos = end
    out.append(src[pos:])
    cell.source = "".join(out)
    return cell
