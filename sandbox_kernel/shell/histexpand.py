"""History expansion, as interactive bash does it to each line it reads (``set -H``): events
``!!``, ``!N``, ``!-N``, ``!prefix``, ``!?text?``, ``!#`` and the quick substitution
``^old^new^``; word designators (``:N``, ``^``, ``$``, ``*``, ``X-Y``, ``X*``, ``X-``, ``%``);
modifiers (``:h :t :r :e :p :q :x :s/old/new/ :& :g``).

The one implementation: the terminal expands each line typed (``ShellEngine.expand_history``),
a cell's lines are expanded when ``set -H`` is on in the notebook, and ``history -p`` prints
expansions. Messages are bash's (``!x: event not found``, ``:5: bad word specifier``,
``:s/a/b/: substitution failed``, ``z: unrecognized history modifier``).
"""
from __future__ import annotations


#: what ends a ``!prefix`` event (readline's event and search delimiters, as bash sets them)
_EVENT_END = frozenset(" \t\n:^$*%-;&()|<>")
#: a ``!`` followed by one of these (or at the end) is not an expansion
_NO_EXPAND = frozenset(" \t\n\r=")
#: readline's word delimiters when it splits an entry into words
_WORD_DELIMITERS = frozenset(" \t\n;&()|<>")
_TWO_CHAR_TOKENS = ("<<", ">>", "&&", "||", ";;", "&>", "<&", ">&", ">|", "<>")
_QUOTES = "\"'`"


class HistoryError(Exception):
    """A history expansion that cannot be made; ``message`` is what bash prints after ``bash: ``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Memory:
    """What history expansion remembers from one line to the next: the last ``?text?`` search
    (for ``%`` and an empty ``s//``) and the last substitution (for ``:&``). A plain class: the
    shell's start imports no ``dataclasses`` (tests/test_startup.py)."""

    __slots__ = ("search", "old", "new")

    def __init__(self, search: str = "", old: str = "", new: str = "") -> None:
        self.search = search
        self.old = old
        self.new = new

    def __repr__(self) -> str:
        return f"Memory(search={self.search!r}, old={self.old!r}, new={self.new!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Memory):
            return NotImplemented
        return (self.search, self.old, self.new) == (other.search, other.old, other.new)


def expand(line: str, entries: list[str], base: int = 1, memory: Memory | None = None,
           extglob: bool = False) -> tuple[str, bool]:
    """``line`` expanded against ``entries`` (the history, oldest first, the first numbered
    ``base``): (the expanded line, whether a ``:p`` modifier asked to print it rather than
    run it). Raises HistoryError."""
    memory = memory if memory is not None else Memory()
    if line.startswith("^"):
        line = "!!:s" + line  # ^old^new^ is !!:s^old^new^
    out: list[str] = []
    print_only = False
    in_single = in_double = False
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if in_single:
            in_single = c != "'"
        elif c == "\\" and i + 1 < n:
            out.append(line[i:i + 2])
            i += 2
            continue
        elif c == "'" and not in_double:
            in_single = True
        elif c == '"':
            in_double = not in_double
        elif c == "!" and not _inhibited(line, i, in_double, extglob):
            text, i, printed = _expand_one(line, i, entries, base, memory, "".join(out), in_double)
            out.append(text)
            print_only = print_only or printed
            continue
        out.append(c)
        i += 1
    return "".join(out), print_only


def _inhibited(line: str, i: int, in_double: bool, extglob: bool) -> bool:
    """A ``!`` that stays as it is (bash_history_inhibit_expansion): before a blank, ``=`` or the
    end, a closing double quote, in ``$!``, ``${!name}``, ``[!...]``, and ``!(...)`` with extglob."""
    after = line[i + 1:i + 2]
    if not after or after in _NO_EXPAND or (in_double and after == '"'):
        return True
    if i > 0 and line[i - 1] == "$":
        return True
    if i > 1 and line[i - 2:i] == "${" and "}" in line[i + 1:]:
        return True
    if i > 0 and line[i - 1] == "[" and "]" in line[i + 1:]:
        return True
    return extglob and after == "(" and ")" in line[i + 2:]


def _expand_one(line: str, i: int, entries: list[str], base: int, memory: Memory, before: str,
                in_double: bool) -> tuple[str, int, bool]:
    """The expansion of the ``!`` at ``i``: (text, where the line goes on, print only)."""
    n = len(line)
    j = i + 1
    c = line[j]
    search_word = ""
    if c == "!":
        j += 1
        event = _entry(entries, len(entries) - 1, line[i:j])
    elif c == "#":
        j += 1
        event = before
    elif c.isdigit() or (c == "-" and line[j + 1:j + 2].isdigit()):
        k = j + 1
        while k < n and line[k].isdigit():
            k += 1
        number = int(line[j:k])
        index = len(entries) + number if number < 0 else number - base
        event = _entry(entries, index if number else -1, line[i:k])
        j = k
    elif c == "?":
        k = j + 1
        while k < n and line[k] not in "?\n":
            k += 1
        text = line[j + 1:k]
        spec_end = k + 1 if k < n and line[k] == "?" else k
        text = text or memory.search
        found = [e for e in reversed(entries) if text and text in e]
        if not found:
            raise HistoryError(f"{line[i:spec_end]}: event not found")
        memory.search = search_word = text
        event = found[0]
        j = spec_end
    elif c in "^$*%:-":  # a word designator alone: the previous command's words
        event = _entry(entries, len(entries) - 1, line[i:j + 1])
    else:
        k = j
        while k < n and line[k] not in _EVENT_END and not (in_double and line[k] == '"'):
            k += 1
        prefix = line[j:k]
        found = [e for e in reversed(entries) if prefix and e.startswith(prefix)]
        if not found:
            raise HistoryError(f"{line[i:k]}: event not found")
        event = found[0]
        j = k
    text, j = _word_designator(line, j, event, search_word or memory.search)
    print_only = False
    while j + 1 < n and line[j] == ":":
        text, j, printed = _modifier(line, j, text, memory)
        print_only = print_only or printed
    return text, j, print_only


def _entry(entries: list[str], index: int, spec: str) -> str:
    if not 0 <= index < len(entries):
        raise HistoryError(f"{spec}: event not found")
    return entries[index]


def _word_designator(line: str, j: int, event: str, search: str) -> tuple[str, int]:
    """The words of ``event`` that a designator at ``j`` selects (all of it without one)."""
    n = len(line)
    start = j
    if j < n and line[j] == ":" and j + 1 < n and (line[j + 1].isdigit() or line[j + 1] in "^$*-%"):
        j += 1
    elif not (j < n and line[j] in "^$*-%"):
        return event, j
    words = split_words(event)
    last_index = len(words) - 1
    c = line[j]
    first: int
    last: int
    if c == "%":
        j += 1
        matching = [k for k, w in enumerate(words) if search and search in w]
        if not matching:
            raise HistoryError(f"{line[start:j]}: bad word specifier")
        first = last = matching[0]
    elif c == "*":
        j += 1
        first, last = 1, last_index
    elif c == "^":
        j += 1
        first = last = 1
    elif c == "$":
        j += 1
        first = last = last_index
    else:
        if c == "-":
            first = 0
        else:
            k = j
            while k < n and line[k].isdigit():
                k += 1
            first, j = int(line[j:k]), k
            last = first
        if j < n and line[j] == "*":
            j += 1
            last = last_index
        elif j < n and line[j] == "-":
            j += 1
            if j < n and line[j].isdigit():
                k = j
                while k < n and line[k].isdigit():
                    k += 1
                last, j = int(line[j:k]), k
            elif j < n and line[j] == "$":
                j += 1
                last = last_index
            else:
                last = last_index - 1  # X- is X-$ without the last word
    if c == "*" and len(words) == 1:  # not an error: nothing but the command name
        return "", j
    open_range = line[j - 1] == "-"  # X-: may be empty (X is the last word)
    if not 0 <= first < len(words) or last >= len(words) or last < first - open_range:
        raise HistoryError(f"{line[start:j]}: bad word specifier")
    return " ".join(words[first:last + 1]), j


def _modifier(line: str, j: int, text: str, memory: Memory) -> tuple[str, int, bool]:
    """Apply the modifier at ``line[j] == ":"``: (text, where the line goes on, print only)."""
    n = len(line)
    start = j
    c = line[j + 1]
    j += 2
    if c == "h":
        return (text[:text.rindex("/")] if "/" in text else text), j, False
    if c == "t":
        return text.rsplit("/", 1)[-1], j, False
    if c == "r":
        dot = text.rfind(".")
        return (text[:dot] if dot > text.rfind("/") else text), j, False
    if c == "e":
        dot = text.rfind(".")
        return (text[dot:] if dot > text.rfind("/") else ""), j, False
    if c == "p":
        return text, j, True
    if c == "q":
        return quote(text), j, False
    if c == "x":
        return " ".join(quote(w) for w in text.split()), j, False
    every = c in "ga"
    if every:
        c = line[j] if j < n else ""
        j += 1
    if c == "&":
        old, new = memory.old, memory.new
    elif c == "s" and j < n:
        delimiter = line[j]
        old, j = _subst_part(line, j + 1, delimiter)
        new, j = _subst_part(line, j + 1, delimiter) if j < n and line[j] == delimiter else ("", j)
        old = old or memory.old or memory.search
        if j < n and line[j] == delimiter:
            j += 1
        memory.old, memory.new = old, new
    else:
        raise HistoryError(f"{c}: unrecognized history modifier")
    replacement = _replacement(new, old)
    if not old or old not in text:
        raise HistoryError(f"{line[start:j]}: substitution failed")
    return text.replace(old, replacement, -1 if every else 1), j, False


def _subst_part(line: str, j: int, delimiter: str) -> tuple[str, int]:
    """One side of ``s/old/new/``: up to the delimiter (``\\`` before it quotes it) or the end."""
    part = []
    n = len(line)
    while j < n and line[j] != delimiter and line[j] != "\n":
        if line[j] == "\\" and j + 1 < n and line[j + 1] == delimiter:
            j += 1
        part.append(line[j])
        j += 1
    return "".join(part), j


def _replacement(new: str, old: str) -> str:
    """``&`` in the new text stands for the old one (``\\&`` is a plain ``&``)."""
    out = []
    k = 0
    while k < len(new):
        if new[k] == "\\" and new[k + 1:k + 2] == "&":
            out.append("&")
            k += 2
            continue
        out.append(old if new[k] == "&" else new[k])
        k += 1
    return "".join(out)


def quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def split_words(text: str) -> list[str]:
    """An entry's words as readline's history_tokenize splits them: blanks separate, quotes
    and ``$(...)`` hold a word together, each of ``; & ( ) | < >`` (and two-character
    operators) is a word of its own."""
    words = []
    i, n = 0, len(text)
    while i < n:
        while i < n and text[i] in " \t\n":
            i += 1
        if i >= n:
            break
        start = i
        while i < n and text[i].isdigit():
            i += 1
        if i == start or i == n or text[i] not in "<>":  # digits before < or > are a redirection's
            i = start
        c = text[i]
        if c in _WORD_DELIMITERS and not (c in "<>" and text[i + 1:i + 2] == "("):
            operator = text[i:i + 2] if text[i:i + 2] in _TWO_CHAR_TOKENS else c
            i += len(operator)
            if operator in (">&", "<&"):  # and the descriptor it duplicates or closes
                if text[i:i + 1] == "-":
                    i += 1
                while i < n and text[i].isdigit():
                    i += 1
            words.append(text[start:i])
            continue
        quote_char = ""
        depth = 0
        while i < n:
            c = text[i]
            if c == "\\" and i + 1 < n and quote_char != "'":
                i += 2
                continue
            if quote_char:
                if c == quote_char:
                    quote_char = ""
            elif c in _QUOTES:
                quote_char = c
            elif c in "$<>" and text[i + 1:i + 2] == "(":
                depth += 1
                i += 1
            elif c == "(" and depth:
                depth += 1
            elif c == ")" and depth:
                depth -= 1
            elif not depth and c in _WORD_DELIMITERS:
                break
            i += 1
        words.append(text[start:i])
    return words
