"""The terminal: clear."""
from __future__ import annotations

from ._lib.quoting import quote
from .options import getopt
from .registry import CommandContext, command


@command("clear", help="Usage: clear [-x]\nClear the terminal screen.\n\n  -x  do not try to clear scrollback")
async def clear(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "xVT:", status=1)
    if operands:
        await ctx.error(f"extra operand {quote(operands[0], 'locale')}")
        return 1
    keep_scrollback = any(o == "x" for o, _ in opts)
    await ctx.out("\x1b[H\x1b[2J" + ("" if keep_scrollback else "\x1b[3J"))
    return 0
