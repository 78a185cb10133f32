"""Completion and inspection of shell code (the kernel's complete_request and inspect_request).

Names come from the shell session (builtins, keywords, functions, aliases, commands,
variables), paths from the VFS, options from each command's help text.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..commands import registry
from ..lazy import TYPE_CHECKING, lazy_compile
from ..vfs import VFS

if TYPE_CHECKING:
    from typing import Any

WORD_BREAKS = set(" \t\n;|&()<>`'\"")
OPTION_RE = lazy_compile(r"(?:^|[\s,\[])(--?[A-Za-z0-9?][\w-]*)")
COMMAND_STARTERS = {"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time",
                    "exec", "command", "builtin", "xargs", "env", "nohup", "timeout", "nice", "sudo"}
#: commands whose arguments are directories
DIRECTORY_COMMANDS = ("cd", "pushd", "rmdir")


class Completer:
    """Completes and inspects code against one shell session (``shell`` may be None when the
    shell engine is unavailable: then only commands and paths are known).

    ``help_text(name)`` gives the help of a command, builtin or magic; ``extra_names`` are
    offered for a first word starting with ``%`` (the kernel's magics)."""

    def __init__(self, shell: Any, fs: VFS, cwd: str, help_text: Callable[[str], str | None],
                 extra_names: Sequence[str] = ()) -> None:
        self.shell = shell
        self.fs = fs
        self.cwd = cwd
        self.help_text = help_text
        self.extra_names = list(extra_names)

    def complete(self, code: str, cursor: int) -> tuple[int, list[str]]:
        """(start of the replaced text, matches)"""
        cursor = max(0, min(cursor, len(code)))
        start = cursor
        while start > 0 and code[start - 1] not in WORD_BREAKS:
            start -= 1
        token = code[start:cursor]
        var = re.search(r"\$(\{?)([A-Za-z_][A-Za-z0-9_]*)?$", token)
        if var:
            names = self.shell.variable_names() if self.shell is not None else []
            brace, prefix = var.group(1), var.group(2) or ""
            found = sorted({n for n in names if n.startswith(prefix)})
            return start + var.start(), [f"${brace}{n}{'}' if brace else ''}" for n in found]
        before = code[:start]
        if token.startswith("%") and not before.strip():
            return start, [n for n in self.extra_names if n.startswith(token)]
        if at_command_position(before):
            if "/" in token:
                return start, self.paths(token, executables=True)
            return start, sorted(n for n in self.command_names() if n.startswith(token))
        if token.startswith("-"):
            name, eq, value = token.partition("=")
            if eq:
                return start + len(name) + 1, self.paths(value)
            command = current_command(before)
            return start, sorted(o for o in self.option_names(command) if o.startswith(token))
        return start, self.paths(token, dirs_only=current_command(before) in DIRECTORY_COMMANDS)

    def command_names(self) -> set[str]:
        """Builtins, keywords, functions, aliases and commands (only commands without a shell)."""
        return set(self.shell.completion_names()) if self.shell is not None else set(registry.names())

    def option_names(self, command: str | None) -> set[str]:
        if not command:
            return set()
        text = self.help_text(command) or ""
        options: set[str] = set()
        for line in text.splitlines():
            if re.match(r"\s*-", line) or re.match(r"\s*\S.*,\s+--", line):
                options.update(m.group(1) for m in OPTION_RE.finditer(line))
        return options

    def paths(self, token: str, executables: bool = False, dirs_only: bool = False) -> list[str]:
        head, slash, base = token.rpartition("/")
        directory = (head or "/") if slash else "."
        if directory == "~" or directory.startswith("~/"):
            directory = "/home/user" + directory[1:]
        try:
            names = self.fs.listdir(directory, cwd=self.cwd)
        except OSError:
            return []
        matches = []
        for name in names:
            if not name.startswith(base) or (name.startswith(".") and not base.startswith(".")):
                continue
            full = f"{directory}/{name}"
            is_dir = self.fs.is_dir(full, cwd=self.cwd)
            if not is_dir and (dirs_only or executables and not self.fs.access(full, 1, cwd=self.cwd)):
                continue
            matches.append(head + slash + escape_word(name) + ("/" if is_dir else ""))
        return matches

    def inspect(self, code: str, cursor: int) -> str | None:
        """Help for the word at the cursor, or a variable's value; None when nothing is known."""
        cursor = max(0, min(cursor, len(code)))
        start, end = cursor, cursor
        while start > 0 and code[start - 1] not in WORD_BREAKS:
            start -= 1
        while end < len(code) and code[end] not in WORD_BREAKS:
            end += 1
        word = code[start:end]
        if not word:
            return None
        var = re.fullmatch(r"\$\{?([A-Za-z_][A-Za-z0-9_]*|[0-9?#@*$!-])\}?", word)
        if var:
            if self.shell is None:
                return None
            value = self.shell.get_variable(var.group(1))
            return None if value is None else f"{var.group(1)}={format_value(value)}"
        return self.help_text(word)


def completion_suffix(match: str) -> str:
    """What follows the one match of a completion at a terminal (readline's way): nothing after
    a directory (its ``/``), an option that takes a value (``--name=``) or a ``${name}``; a
    space after a command, a file, a word."""
    return "" if match.endswith(("/", "=", "}")) else " "


def listed_name(match: str) -> str:
    """How a match is listed when there are several (readline's): a path by its last
    component (a directory with its ``/``), as the name is, without the backslashes that
    quote it in the command line."""
    name = match
    if "/" in match.rstrip("/"):
        name = match.rstrip("/").rsplit("/", 1)[1] + ("/" if match.endswith("/") else "")
    return re.sub(r"\\(.)", r"\1", name)


def at_command_position(before: str) -> bool:
    """Whether a word starting after ``before`` is a command name (not an argument)."""
    segment = re.split(r"[;|&(\n`]|\$\(", before)[-1]
    words = segment.split()
    while words and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", words[0]):
        words.pop(0)  # VAR=value prefixes
    return not words or words[-1] in COMMAND_STARTERS and len(words) == 1


def current_command(before: str) -> str | None:
    segment = re.split(r"[;|&(\n`]|\$\(", before)[-1]
    words = [w for w in segment.split() if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", w)]
    return words[0] if words else None


def escape_word(name: str) -> str:
    return re.sub(r"([\s'\"\\$&;|()<>`*?\[\]!{}#~])", r"\\\1", name)


def format_value(value: Any) -> str:
    if isinstance(value, dict):
        return "(" + " ".join(f"[{k}]={v!r}" for k, v in value.items()) + ")"
    if isinstance(value, (list, tuple)):
        return "(" + " ".join(repr(v) for v in value) + ")"
    return repr(value) if isinstance(value, str) and (not value or re.search(r"\s", value)) else str(value)
