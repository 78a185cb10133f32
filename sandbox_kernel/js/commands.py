"""`js` and `node`: run JavaScript in the sandbox (the JS engine does the work)."""
from __future__ import annotations

from ..commands.registry import CommandContext, command
from .cmdline import HELP


@command("js", "node", help=HELP)
async def js(ctx: CommandContext) -> int:
    if ctx.sandbox is None:
        await ctx.error("no sandbox: the JS engine is not available here")
        return 1
    try:
        engine = ctx.sandbox.engine("js")
    except Exception as e:  # EngineUnavailable: a missing wheel, an unwritable platform...
        await ctx.error(str(e))
        return 1
    return await engine.run_command(ctx)
