"""man: the manual page of a command, made from its --help text (or a shell builtin's help),
written out whole: there is no pager in a notebook."""
from __future__ import annotations

import re

from ..chars import isdigits
from ..streams import BufferOutput, BytesInput
from .registry import CommandContext, command, lookup

MAN_HELP = """Usage: man [SECTION] PAGE...
Show the manual page of each PAGE: a command's --help text, or a shell builtin's help.
The whole page is written out (no pager). Every page is in section 1 (user commands).

Exit status: 0 when every page was found, 16 when one was not, 1 on a usage error.

Examples:
  man ls
  man cd
  man 1 grep"""

#: what man-db exits with when a page is missing
NOT_FOUND = 16
#: sections as man writes them: 1, 1p, 8 ...
_SECTION = re.compile(r"[1-9][a-z]*|n|l")


async def _captured(ctx: CommandContext, argv: list[str]) -> tuple[int, str]:
    out = BufferOutput()
    status = await ctx.run(argv, stdin=BytesInput(b""), stdout=out, stderr=BufferOutput())
    return status, out.getvalue().decode("utf-8", "replace")


async def page_text(ctx: CommandContext, name: str) -> tuple[str, str] | None:
    """(kind, text) of NAME's page: a command's help, else a builtin's; None when neither."""
    spec = lookup(name)
    if spec is not None:
        if spec.help:
            return "Sandbox Commands", spec.help
        if spec.own_help:  # the command answers --help itself
            status, text = await _captured(ctx, [name, "--help"])
            if status == 0 and text.strip():
                return "Sandbox Commands", text.rstrip("\n")
    if ctx.shell is None:
        return None
    status, names = await _captured(ctx, ["compgen", "-b"])
    if status != 0 or name not in names.split("\n"):
        return None
    status, text = await _captured(ctx, ["help", name])
    if status != 0 or not text.strip():
        return None
    return "Shell Builtins", text.rstrip("\n")


def format_page(name: str, section: str, kind: str, text: str, width: int) -> str:
    """A man-style header line, then the help text as it is."""
    title = f"{name.upper()}({section})"
    gap = max(width - 2 * len(title) - len(kind), 2)
    header = title + " " * (gap // 2) + kind + " " * (gap - gap // 2) + title
    return f"{header}\n\n{text}\n"


@command("man", help=MAN_HELP)
async def man(ctx: CommandContext) -> int:
    args = list(ctx.args)
    if args and args[0] == "--":
        args = args[1:]
    elif args and args[0].startswith("-") and args[0] != "-":
        await ctx.err(f"man: invalid option -- '{args[0].lstrip('-')[:1]}'\n"
                      "Try 'man --help' for more information.\n")
        return 1
    section = ""
    if len(args) > 1 and _SECTION.fullmatch(args[0]):
        section, args = args[0], args[1:]
    if not args:
        if section:
            await ctx.err(f"No manual entry for {section}\n")
            return NOT_FOUND
        await ctx.err("What manual page do you want?\nFor example, try 'man man'.\n")
        return 1
    columns = ctx.env.get("COLUMNS", "")
    width = int(columns) if isdigits(columns) and 0 < int(columns) < 1000 else 80
    status = 0
    for name in args:
        found = await page_text(ctx, name) if section in ("", "1") else None
        if found is None:
            where = f" in section {section}" if section else ""
            await ctx.err(f"No manual entry for {name}{where}\n")
            status = NOT_FOUND
            continue
        await ctx.out(format_page(name, section or "1", found[0], found[1], width))
    return status
