"""The command history: ``history``, and how a notebook cell's source becomes history entries.

An interactive shell (the notebook) keeps the commands of the cells it ran, one entry per
command as bash's ``cmdhist`` does (a multi-line ``for`` is one entry). HISTFILE is read and
written only when asked (``history -r/-w/-a``): a kernel has no login or logout.
"""
from __future__ import annotations


from ...lazy import lazy_compile
from ...vfs import FSError
from ..syntax.parser import check_complete
from .args import bash_int
from .output import err, out
from .registry import builtin

#: entries kept when HISTSIZE is unset or not a number (bash's default)
DEFAULT_HISTSIZE = 500
#: lines one entry may gather while its command is incomplete (a longer one is cut there)
MAX_ENTRY_LINES = 200
#: a line after which bash joins the next one with a blank rather than "; "
_JOIN_WITH_BLANK = lazy_compile(r"(?:^|[\s;])(?:do|then|else|elif|in|\{|\()$|(?:\||&&|\(|\{)$")
_HEREDOC = lazy_compile(r"<<-?\s*['\"]?[A-Za-z_0-9]")
USAGE = "history: usage: history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]\n"


def history_entries(source: str) -> list[str]:
    """A cell's commands as bash's history keeps them: one entry per complete command, the
    lines of a multi-line one joined ("; " or a blank; newlines when it has a here-doc)."""
    entries: list[str] = []
    chunk: list[str] = []
    for line in source.split("\n"):
        if not chunk and not line.strip():
            continue
        chunk.append(line)
        text = "\n".join(chunk)
        if len(chunk) < MAX_ENTRY_LINES and check_complete(text + "\n") == "incomplete":
            continue
        entries.append(_joined(chunk))
        chunk = []
    if chunk:
        entries.append(_joined(chunk))
    return entries


def _joined(lines: list[str]) -> str:
    if len(lines) == 1:
        return lines[0]
    if any(_HEREDOC.search(line) for line in lines):
        return "\n".join(lines) + "\n"
    text = lines[0]
    for line in lines[1:]:
        if not line.strip():
            continue
        text += (" " if _JOIN_WITH_BLANK.search(text.rstrip()) else "; ") + line
    return text


def remember(sh, entries: list[str]) -> None:
    """Append entries, keeping the last $HISTSIZE; numbering goes on past dropped ones."""
    if not entries:
        return
    size = sh.get_scalar("HISTSIZE")
    limit = int(size) if size is not None and size.isdigit() else DEFAULT_HISTSIZE
    kept = sh.history + entries
    dropped = max(len(kept) - limit, 0)
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
  -p  print the ARGs (no history expansion in the sandbox)
  -w  write the history to FILENAME (default $HISTFILE); -a append the new entries;
      -r read FILENAME's lines into the list""",
)
async def b_history(sh, argv, fds):
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
        await out(fds, "".join(a + "\n" for a in rest))
        return 0
    if flag in ("-w", "-a", "-r", "-n"):
        return await _file(sh, fds, flag, rest[0] if rest else sh.get_scalar("HISTFILE"))
    await err(sh, fds, "history", f"{flag}: invalid option")
    await sh.err(fds, USAGE)
    return 2


async def _list(sh, fds, args: list[str]) -> int:
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


async def _delete(sh, fds, args: list[str]) -> int:
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


async def _file(sh, fds, flag: str, path: str | None) -> int:
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
