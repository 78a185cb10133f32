"""The terminal: clear."""
from __future__ import annotations

from ._lib.quoting import quote
from .options import getopt
from .registry import CommandContext, command

CLEAR_HELP = """Usage: clear [-x]
Clear the terminal screen; in a notebook, clear the cell's output so far.

  -x  do not try to clear scrollback"""


@command("clear", help=CLEAR_HELP)
async def clear(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "xVT:", status=1)
    if operands:
        await ctx.error(f"extra operand {quote(operands[0], 'locale')}")
        return 1
    # the notebook's cell output is no terminal: its escape codes would be dropped, clear_output is what clears it
    hook = getattr(ctx.shell, "display", None) or getattr(ctx.sandbox, "current_display", None)
    clear_output = getattr(hook, "clear", None)
    if ctx.stdout.screen() == "notebook" and clear_output is not None:
        clear_output(False)
        return 0
    keep_scrollback = any(o == "x" for o, _ in opts)
    await ctx.out("\x1b[H\x1b[2J" + ("" if keep_scrollback else "\x1b[3J"))
    return 0
