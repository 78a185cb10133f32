"""The command history: ``history``, and how a notebook cell's source becomes history entries.

An interactive shell (the notebook) keeps the commands of the cells it ran, one entry per
command as bash's ``cmdhist`` does (a multi-line ``for`` is one entry). HISTFILE is read and
written only when asked (``history -r/-w/-a``): a kernel has no login or logout.
"""
from __future__ import annotations

from ...lazy import TYPE_CHECKING, lazy_compile
from ...vfs import FSError
from ..histexpand import HistoryError, expand
from ..syntax.parser import completeness
from .args import bash_int
from .output import err, out
from .registry import builtin

if TYPE_CHECKING:
    from ..api import Fds, ShellAPI

#: entries kept when HISTSIZE is unset or not a number (bash's default)
DEFAULT_HISTSIZE = 500
#: the history's text is at most this long: the oldest entries go first
MAX_HISTORY_CHARS = 4 * 1024 * 1024
#: lines one entry may gather while its command is incomplete (a longer one is cut there)
MAX_ENTRY_LINES = 200
#: a line after which bash joins the next one with a blank rather than "; "
_JOIN_WITH_BLANK = lazy_compile(r"(?:^|[\s;])(?:do|then|else|elif|in|\{|\()$|(?:\||&&|\(|\{)$")
_HEREDOC = lazy_compile(r"<<-?\s*['\"]?[A-Za-z_0-9]")
USAGE = "history: usage: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]\n"


def history_entries(source: str) -> list[str]:
    """A cell's commands as bash's history keeps them: one entry per complete command, the
    lines of a multi-line one joined ("; " or a blank; a newline inside a quote, a command
    substitution or a here-doc is kept, so the entry runs again as it was written)."""
    entries: list[str] = []
    chunk: list[str] = []
    #: for each line of the chunk after the first: how it joins (Incomplete.join)
    joins: list[str | None] = []
    for line in source.split("\n"):
        if not chunk and not line.strip():
            continue
        chunk.append(line)
        text = "\n".join(chunk)
        status, join = completeness(text + "\n")
        if len(chunk) < MAX_ENTRY_LINES and status == "incomplete":
            joins.append(join)
            continue
        entries.append(_joined(chunk, joins))
        chunk, joins = [], []
    if chunk:
        entries.append(_joined(chunk, joins))
    return entries


def _joined(lines: list[str], joins: list[str | None]) -> str:
    if len(lines) == 1:
        return lines[0]
    if any(_HEREDOC.search(line) for line in lines):
        return "\n".join(lines) + "\n"
    text = lines[0]
    for line, join in zip(lines[1:], joins):
        if join == "\n":
            text += join + line
        elif join == " " and line.strip():
            text += join + line.strip()
        elif line.strip():
            text += (" " if _JOIN_WITH_BLANK.search(text.rstrip()) else "; ") + line
    return text


def record(sh: ShellAPI, source: str) -> None:
    """Record the commands of ``source`` (a cell, a command typed at the terminal) as bash
    records each command line it reads: one entry per command (history_entries), as
    HISTCONTROL says (ignorespace, ignoredups, ignoreboth, erasedups)."""
    control = (sh.get_scalar("HISTCONTROL") or "").split(":")
    space = "ignorespace" in control or "ignoreboth" in control
    dups = "ignoredups" in control or "ignoreboth" in control
    erase = "erasedups" in control
    kept: list[str] = []
    for entry in history_entries(source):
        if space and entry[:1] in (" ", "\t"):
            continue
        previous = kept[-1] if kept else sh.history[-1] if sh.history else None
        if dups and entry == previous:
            continue
        if erase:
            kept = [e for e in kept if e != entry]
            if entry in sh.history:
                sh.history = [e for e in sh.history if e != entry]
                sh.history_saved = min(sh.history_saved, len(sh.history))
        kept.append(entry)
    remember(sh, kept)


def remember(sh: ShellAPI, entries: list[str]) -> None:
    """Append entries, keeping the last $HISTSIZE (and at most MAX_HISTORY_CHARS of text, whatever
    HISTSIZE says: what is typed at a terminal or run in cells is not counted as variables are);
    numbering goes on past dropped ones."""
    if not entries:
        return
    size = sh.get_scalar("HISTSIZE")
    limit = int(size) if size is not None and size.isdigit() else DEFAULT_HISTSIZE
    kept = sh.history + entries
    dropped = max(len(kept) - limit, 0)
    total = sum(map(len, kept[dropped:]))
    while total > MAX_HISTORY_CHARS and dropped < len(kept) - 1:
        total -= len(kept[dropped])
        dropped += 1
    # a new list rather than in place: subshells share the parent's
    sh.history = kept[dropped:]
    sh.history_base += dropped
    sh.history_saved = max(sh.history_saved - dropped, 0)


@builtin(
    "history",
    usage="history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]",
    text="""
Display or manipulate the history list: the commands of this notebook's cells, numbered.
With N, list only the last N entries.
  -c  clear the history list
  -d offset  delete the entry at OFFSET
  -s  append the ARGs to the history list as one entry
  -p  print the ARGs history-expanded (!!, !N, !prefix ...), without recording them
  -w  write the history to FILENAME (default $HISTFILE); -a append the new entries;
      -r read FILENAME's lines into the list""",
)
async def b_history(sh: ShellAPI, argv: list[str], fds: Fds) -> int:
    args = argv[1:]
    if args and args[0] == "--":
        args = args[1:]
    if not args or not args[0].startswith("-") or args[0] == "-":
        return await _list(sh, fds, args)
    flag, rest = args[0], args[1:]
    if flag == "-c":
        sh.history = []
        sh.history_base = 1
        sh.history_saved = 0
        return 0
    if flag == "-d":
        return await _delete(sh, fds, rest)
    if flag == "-s":
        remember(sh, [" ".join(rest)] if rest else [])
        return 0
    if flag == "-p":
        return await _print_expansions(sh, fds, rest)
    if flag in ("-w", "-a", "-r", "-n"):
        return await _file(sh, fds, flag, rest[0] if rest else sh.get_scalar("HISTFILE"))
    await err(sh, fds, "history", f"{flag}: invalid option")
    await sh.err(fds, USAGE)
    return 2


async def _print_expansions(sh: ShellAPI, fds: Fds, args: list[str]) -> int:
    """``history -p``: each argument history-expanded (whether or not ``set -H`` is on)."""
    lines = []
    for arg in args:
        try:
            lines.append(expand(arg, sh.history, sh.history_base, sh.history_memory, sh.shopts["extglob"])[0])
        except HistoryError:
            await err(sh, fds, "history", f"{arg}: history expansion failed")
            return 1
    await out(fds, "".join(line + "\n" for line in lines))
    return 0


async def _list(sh: ShellAPI, fds: Fds, args: list[str]) -> int:
    entries = sh.history
    start = 0
    if args:
        try:
            count = bash_int(args[0])
        except ValueError:
            await err(sh, fds, "history", f"{args[0]}: numeric argument required")
            return 1
        start = max(len(entries) - max(count, 0), 0)
    base = sh.history_base
    await out(fds, "".join(f"{base + k:5d}  {entries[k]}\n" for k in range(start, len(entries))))
    return 0


async def _delete(sh: ShellAPI, fds: Fds, args: list[str]) -> int:
    if not args:
        await err(sh, fds, "history", "-d: option requires an argument")
        return 2
    try:
        position = bash_int(args[0])
    except ValueError:
        position = 0
    index = position - sh.history_base if position > 0 else len(sh.history) + position
    if not 0 <= index < len(sh.history):
        await err(sh, fds, "history", f"{args[0]}: history position out of range")
        return 1
    sh.history = sh.history[:index] + sh.history[index + 1:]
    return 0


async def _file(sh: ShellAPI, fds: Fds, flag: str, path: str | None) -> int:
    if not path:
        return 0
    try:
        if flag == "-w":
            sh.fs.write_bytes(path, "".join(e + "\n" for e in sh.history).encode("utf-8", "surrogateescape"), sh.cwd)
            sh.history_saved = len(sh.history)
        elif flag == "-a":
            new = "".join(e + "\n" for e in sh.history[sh.history_saved:])
            sh.fs.write_bytes(path, new.encode("utf-8", "surrogateescape"), sh.cwd, append=True)
            sh.history_saved = len(sh.history)
        else:
            text = sh.fs.read_bytes(path, sh.cwd).decode("utf-8", "surrogateescape")
            remember(sh, [line for line in text.split("\n") if line])
            sh.history_saved = len(sh.history)
    except FSError as e:
        await err(sh, fds, "history", f"{path}: {e.strerror}")
        return 1
    return 0
