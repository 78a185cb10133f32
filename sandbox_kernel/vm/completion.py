"""Tab and Shift-Tab in `%%vm` cells, answered by the guest's bash (``compgen``, ``type``, ``help``).

The host only finds the word at the cursor and what kind of word it is (a command name, a
variable after ``$``, a file name); ``GUEST_SCRIPT`` runs in the guest through the agent's exec
with the word as an argument (never as code), and ``read_names`` / ``read_help`` take the
guest's reply as untrusted data: bounded in count and size, only printable text, names that
would not read back as one shell word escaped.
"""
from __future__ import annotations

import re

#: characters that end a word for completion (as the shell cells' completer has them)
WORD_BREAKS = frozenset(" \t\n;|&()<>`'\"")
#: words after which the next word is a command name
COMMAND_STARTERS = frozenset({"if", "then", "else", "elif", "do", "while", "until", "!", "{", "time", "exec",
                              "command", "builtin", "xargs", "env", "nohup", "timeout", "nice", "sudo"})
MAX_NAMES = 500        # names answered at most
MAX_NAME = 1024        # longest name kept
MAX_WORD = 1024        # longest word sent to the guest
MAX_HELP = 4000        # characters of help answered at most

#: $1: c (commands), v (variables), f (files), h (what a name is); $2: the word
GUEST_SCRIPT = r"""
mode=$1 word=$2
case $mode in
  c) compgen -c -- "$word" ;;
  v) compgen -v -- "$word" ;;
  f) compgen -f -- "$word" | while IFS= read -r f; do
       p=$f
       case $p in "~/"*) p=$HOME/${p#"~/"} ;; esac
       if [ -d "$p" ]; then printf '%s/\n' "$f"; else printf '%s\n' "$f"; fi
     done ;;
  h) kind=$(type -t -- "$word") || exit 1
     type -- "$word"
     case $kind in builtin|keyword) help -- "$word" ;; esac ;;
esac 2>/dev/null
"""

_VAR = re.compile(r"\$(\{?)([A-Za-z_][A-Za-z0-9_]*)?$")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=\S*")
_NEEDS_ESCAPE = re.compile(r"([\s'\"\\$&;|()<>`*?\[\]!{}#])")
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def word_start(code: str, cursor: int) -> int:
    start = cursor
    while start > 0 and code[start - 1] not in WORD_BREAKS:
        start -= 1
    return start


def at_command_position(before: str) -> bool:
    """Whether a word after ``before`` is a command name (not an argument)."""
    segment = re.split(r"[;|&(\n`]|\$\(", before)[-1]
    words = segment.split()
    while words and _ASSIGNMENT.fullmatch(words[0]):
        words.pop(0)  # VAR=value prefixes
    return not words or (len(words) == 1 and words[0] in COMMAND_STARTERS)


def completion_request(code: str, cursor: int) -> tuple[int, str, str, str] | None:
    """(where the replaced text starts, mode for GUEST_SCRIPT, the word to complete, what a
    variable match is wrapped in: "" or "{") for the word before ``cursor``; None for none."""
    cursor = max(0, min(cursor, len(code)))
    start = word_start(code, cursor)
    word = code[start:cursor]
    if len(word) > MAX_WORD or "\\" in word:
        return None
    var = _VAR.search(word)
    if var:
        return start + var.start(), "v", var.group(2) or "", var.group(1)
    if "$" in word:
        return None
    if at_command_position(code[:start]) and "/" not in word:
        return start, "c", word, ""
    return start, "f", word, ""


def inspection_word(code: str, cursor: int) -> str | None:
    """The word under (or just before) the cursor, when it may name a command."""
    cursor = max(0, min(cursor, len(code)))
    start, end = word_start(code, cursor), cursor
    while end < len(code) and code[end] not in WORD_BREAKS:
        end += 1
    word = code[start:end]
    return word if word and len(word) <= MAX_WORD and re.fullmatch(r"[\w.+:@%,-]+|\[\[?|\{|!", word) else None


def escape(name: str) -> str:
    return _NEEDS_ESCAPE.sub(r"\\\1", name)


def read_names(data: bytes, mode: str, brace: str = "") -> list[str]:
    """The guest's names (one a line), as matches: printable, bounded, de-duplicated."""
    names: list[str] = []
    seen: set[str] = set()
    for raw in data.split(b"\n"):
        if len(names) >= MAX_NAMES:
            break
        name = raw.decode("utf-8", "replace")
        if not name or len(name) > MAX_NAME or _UNPRINTABLE.search(name) or "\ufffd" in name or name in seen:
            continue
        seen.add(name)
        if mode == "v":
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                continue
            names.append(f"${brace}{name}{'}' if brace else ''}")
        elif mode == "f":
            directory = name.endswith("/") and len(name) > 1
            names.append(escape(name[:-1] if directory else name) + ("/" if directory else ""))
        else:
            names.append(escape(name))
    return sorted(names, key=lambda n: (n.lower(), n))


def read_help(data: bytes) -> str | None:
    text = data.decode("utf-8", "replace")[:MAX_HELP]
    text = _UNPRINTABLE.sub("", text).strip()
    return text or None
