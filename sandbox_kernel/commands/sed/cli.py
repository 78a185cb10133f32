"""The sed command: options, the script's -e/-f chunks, the run."""
from __future__ import annotations

from ...lazy import lazy_compile
from ...vfs import FSError
from .._lib.lineblocks import LineTooLong, TextCodec
from .._lib.posix_regex import RegexStopped
from ..options import UsageError, getopt
from ..registry import CommandContext, command
from .parser import ScriptParser
from .runtime import ASCII_LOWER, ASCII_UPPER, Sed
from .script import SedError

SED_HELP = """\
Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...

  -n, --quiet, --silent
                 suppress automatic printing of pattern space
  -e script, --expression=script
                 add the script to the commands to be executed
  -f script-file, --file=script-file
                 add the contents of script-file to the commands to be executed
  -i[SUFFIX], --in-place[=SUFFIX]
                 edit files in place (makes backup if SUFFIX supplied)
  -l N, --line-length=N
                 specify the desired line-wrap length for the `l' command
  --posix
                 disable all GNU extensions.
  -E, -r, --regexp-extended
                 use extended regular expressions in the script
                 (for portability use POSIX -E).
  -s, --separate
                 consider files as separate rather than as a single
                 continuous long stream.
  -u, --unbuffered
                 load minimal amounts of data from the input files and flush
                 the output buffers more often
  -z, --null-data
                 separate lines by NUL characters
      --help     display this help and exit
      --version  output version information and exit

If no -e, --expression, -f, or --file option is given, then the first
non-option argument is taken as the sed script to interpret.  All
remaining arguments are names of input files; if no input files are
specified, then the standard input is read."""


def _parse_options(args: list[str]):
    return getopt(args, "ne:f:i::l:ErsuzV", {
        "quiet": "n", "silent": "n", "expression=": "e", "file=": "f", "in-place==": "i",
        "line-length=": "l", "regexp-extended": "E", "separate": "s", "unbuffered": "u",
        "null-data": "z", "zero-terminated": "z", "posix": None, "version": "V",
        "debug": None, "follow-symlinks": None, "sandbox": None})


_HEX_RUN = lazy_compile(r"(?:\\x[0-9a-fA-F]{2})+")


def _names_partial_characters(script: str) -> bool:
    """Whether the script's ``\\xHH`` escapes spell a byte that is no whole UTF-8 character
    (in a bracket expression each escape is a byte of its own)."""
    for m in _HEX_RUN.finditer(script):
        before = script[:m.start()]
        if before.rfind("[") > before.rfind("]") and int(m.group(0)[2:4], 16) >= 0x80:
            return True
        try:
            bytes.fromhex(m.group(0).replace("\\x", "")).decode("utf-8")
        except UnicodeDecodeError:
            return True
    return False


@command("sed", help=SED_HELP)
async def sed(ctx: CommandContext) -> int:
    try:
        opts, operands = _parse_options(ctx.args)
    except UsageError as e:
        await ctx.error(e.message)
        await ctx.err(SED_HELP + "\n")
        return 1
    quiet = extended = separate = posix = follow_symlinks = False
    in_place: str | None = None
    eol = b"\n"
    line_wrap = 70
    chunks: list[str] = []
    for key, value in opts:
        if key == "n":
            quiet = True
        elif key == "e":
            chunks.append(value)
        elif key == "f":
            try:
                data = await ctx.read_input(value)
            except FSError as e:
                await ctx.error(f"couldn't open file {value}: {e.strerror}")
                return 1
            text = data.decode("utf-8", "surrogateescape")
            chunks.append(text[:-1] if text.endswith("\n") else text)
        elif key == "i":
            in_place = value or ""
            separate = True
        elif key == "l":
            try:
                line_wrap = int(value)
            except ValueError:
                await ctx.error(f"invalid line length: {value}")
                return 1
        elif key in ("E", "r"):
            extended = True
        elif key == "s":
            separate = True
        elif key == "z":
            eol = b"\0"
        elif key == "posix":
            posix = True
        elif key == "follow-symlinks":
            follow_symlinks = True
        elif key == "V":
            await ctx.out("sed (GNU sed) 4.9 (sandbox_kernel)\n")
            return 0
    if not chunks:
        if not operands:
            await ctx.err(SED_HELP + "\n")
            return 1
        chunks.append(operands.pop(0))
    script = "\n".join(chunks)
    codec = TextCodec.for_env(ctx.env)
    if not codec.bytes_mode and _names_partial_characters(script):
        # GNU sed matches such a byte even inside a character: the script runs byte-wise
        codec = TextCodec(True)
    if script[:2] == "#n" and script[2:3] in ("", "\n"):
        quiet = True  # POSIX: a script starting with "#n" line means -n
    # which -e chunk a script offset belongs to (for messages)
    bounds = []
    pos = 0
    for c in chunks:
        pos += len(c) + 1
        bounds.append(pos)

    def chunk_of(offset: int) -> str:
        for n, b in enumerate(bounds, 1):
            if offset < b:
                start = bounds[n - 2] if n > 1 else 0
                return f"{n}, char {offset - start}"
        return f"{len(bounds)}, char {offset}"

    try:
        commands = ScriptParser(codec.arg(script), extended, chunk_of, ascii=codec.bytes_mode).parse()
    except SedError as e:
        await ctx.error(e.message)
        return e.status
    if in_place is not None and not operands:
        await ctx.error("no input files")
        return 4
    runner = Sed(ctx, commands, quiet, eol, line_wrap, in_place is not None, separate, posix)
    runner.codec = codec
    if codec.bytes_mode:  # C locale: \U and \L change ASCII letters only
        runner.upper = lambda text: text.translate(ASCII_UPPER)
        runner.lower = lambda text: text.translate(ASCII_LOWER)
    runner.in_place_suffix = in_place or ""
    runner.follow_symlinks = follow_symlinks
    runner.plan_fast_path(extended)
    try:
        return await runner.run(operands)
    except SedError as e:
        await runner.flush()
        await ctx.error(e.message)
        return e.status
    except RegexStopped as e:
        await runner.flush()
        await ctx.error(f"regular expression '{e.pattern}' stopped: {e.describe()}")
        ctx.check()
        return 4
    except LineTooLong:
        await runner.flush()
        await ctx.error("couldn't re-allocate memory")
        return 4
