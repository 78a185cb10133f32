"""GNU getopt_long-style option parsing for commands.

    opts, operands = getopt(args, "n:c:qv", {"lines=": "n", "quiet": "q", "color==": None})

``short``: letters; ``x:`` takes an argument, ``x::`` an optional attached one.
``long``: ``name`` (flag), ``name=`` (required argument), ``name==`` (optional ``=value``);
the value is the short letter it aliases, or None to report it under its own long name.
Options and operands may be mixed (GNU permutation) unless ``permute=False`` or
POSIXLY_CORRECT-style ``+`` is at the start of ``short``; ``--`` ends options.
Unique prefixes of long options are accepted. Errors raise ``UsageError`` whose message is
GNU's (``invalid option -- 'x'``, ``unrecognized option '--x'``, ``option requires an
argument -- 'n'``) and whose status is ``status``: the real tool's usage-error exit status
(2 for grep/sed/diff, 1 for most of coreutils, 64 for tar, 125 for env/timeout, 255 for
hostname); the registry prints it with the ``Try 'CMD --help'`` line.
"""
from __future__ import annotations

from collections.abc import Hashable

from ._lib.quoting import quote


class UsageError(Exception):
    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class ArgCursor:
    """Reads an expression given as words (expr's, find's) one word at a time."""

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.pos = 0

    def peek(self) -> str | None:
        return self.args[self.pos] if self.pos < len(self.args) else None

    def take(self) -> str:
        tok = self.args[self.pos]
        self.pos += 1
        return tok


def argmatch(value: str | None, choices: list[str] | dict[str, Hashable], option: str,
             status: int = 1) -> Hashable:
    """GNU argmatch: what ``value`` means among ``choices`` (words, or words -> meanings; words
    with one meaning are synonyms), given whole or as a prefix that only synonyms share. Else
    a UsageError: ``invalid argument 'x' for '--sort'`` (or ``ambiguous``) and the list of the
    valid arguments, synonyms on one line."""
    table = choices if isinstance(choices, dict) else {word: word for word in choices}
    value = value or ""
    if value in table:
        return table[value]
    matches = [word for word in table if word.startswith(value)]
    if len({table[word] for word in matches}) == 1:
        return table[matches[0]]
    groups: dict[Hashable, list[str]] = {}
    for word, meaning in table.items():
        groups.setdefault(meaning, []).append(f"'{word}'")
    listing = "\n".join("  - " + ", ".join(words) for words in groups.values())
    raise UsageError(f"{'ambiguous' if matches else 'invalid'} argument {quote(value, 'locale')} "
                     f"for {quote(option, 'locale')}\nValid arguments are:\n{listing}", status)


_NO_LONG: dict[str, str | None] = {}


def getopt(args: list[str], short: str, long: dict[str, str | None] | None = None,
           permute: bool = True, negative_numbers: bool = False,
           status: int = 2) -> tuple[list[tuple[str, str | None]], list[str]]:
    try:
        return _parse(args, short, long or _NO_LONG, permute, negative_numbers)
    except UsageError as e:
        e.status = status
        raise


def _parse(args: list[str], short: str, long: dict[str, str | None], permute: bool,
           negative_numbers: bool) -> tuple[list[tuple[str, str | None]], list[str]]:
    for arg in args:
        if arg[:1] == "-" and len(arg) > 1:
            break
    else:
        return [], list(args)  # nothing that looks like an option (most calls)
    if short.startswith("+"):
        permute = False
        short = short[1:]
    takes, long_takes = _tables(short, long)
    opts: list[tuple[str, str | None]] = []
    operands: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            operands.extend(args[i:])
            break
        if arg.startswith("--"):
            body = arg[2:]
            name, eq, value = body.partition("=")
            if name in long_takes:
                match = name
            else:
                cands = [n for n in long_takes if n.startswith(name)]
                # several prefixes mapping to the same option are not ambiguous
                targets = {long_takes[c][1] for c in cands}
                if len(cands) == 1 or (cands and len(targets) == 1):
                    match = cands[0]
                elif not cands:
                    raise UsageError(f"unrecognized option '{arg}'")
                else:
                    raise UsageError(f"option '{arg}' is ambiguous; possibilities:" +
                                     "".join(f" '--{c}'" for c in cands))
            kind, key = long_takes[match]
            if kind == 0:
                if eq:
                    raise UsageError(f"option '--{match}' doesn't allow an argument")
                opts.append((key, None))
            elif kind == 1:
                if not eq:
                    if i >= len(args):
                        raise UsageError(f"option '--{match}' requires an argument")
                    value = args[i]
                    i += 1
                opts.append((key, value))
            else:
                opts.append((key, value if eq else None))
            continue
        if arg.startswith("-") and len(arg) > 1 and not (negative_numbers and _is_number(arg)):
            j = 1
            while j < len(arg):
                ch = arg[j]
                j += 1
                if ch not in takes:
                    raise UsageError(f"invalid option -- '{ch}'")
                if takes[ch] == 0:
                    opts.append((ch, None))
                    continue
                if j < len(arg):
                    opts.append((ch, arg[j:]))
                elif takes[ch] == 1:
                    if i >= len(args):
                        raise UsageError(f"option requires an argument -- '{ch}'")
                    opts.append((ch, args[i]))
                    i += 1
                else:
                    opts.append((ch, None))
                break
            continue
        operands.append(arg)
        if not permute:
            operands.extend(args[i:])
            break
    return opts, operands


_TABLES: dict[tuple[str, tuple], tuple[dict[str, int], dict[str, tuple[int, str]]]] = {}


def _tables(short: str, long: dict[str, str | None]) -> tuple[dict[str, int], dict[str, tuple[int, str]]]:
    """What each short letter takes (0 nothing, 1 an argument, 2 an optional one) and each
    long name (its kind, the key it reports); built once per command's option tables."""
    key = (short, tuple(long.items()))  # by content: many commands build LONG at each call
    cached = _TABLES.get(key)
    if cached is not None:
        return cached
    takes: dict[str, int] = {}
    i = 0
    while i < len(short):
        ch = short[i]
        n = 0
        if short[i + 1:i + 3] == "::":
            n, i = 2, i + 2
        elif short[i + 1:i + 2] == ":":
            n, i = 1, i + 1
        takes[ch] = n
        i += 1
    long_takes: dict[str, tuple[int, str]] = {}
    for name_key, alias in long.items():
        name = name_key.rstrip("=")
        n = 2 if name_key.endswith("==") else 1 if name_key.endswith("=") else 0
        long_takes[name] = (n, alias if alias is not None else name)
    if len(_TABLES) >= 256:
        _TABLES.clear()
    _TABLES[key] = (takes, long_takes)
    return takes, long_takes


def _is_number(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False
