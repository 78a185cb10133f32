"""base64 and base32: encode or decode, streaming, with GNU's wrapping and error messages."""
from __future__ import annotations

import base64
import binascii
import re

from ..chars import isdigits
from ..vfs import FSError
from ._lib.quoting import quote
from .options import UsageError, getopt
from .registry import CommandContext, command

_HELP = """Usage: {name} [OPTION]... [FILE]
{name_cap} encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping

The data are encoded as described for the {alphabet} alphabet in RFC 4648.
When decoding, the input may contain newlines in addition to the bytes of
the formal {alphabet} alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
"""

_CODECS = {
    # name: (encode, decode, bytes per group, chars per group, alphabet regex)
    "base64": (base64.b64encode, base64.b64decode, 3, 4, rb"[A-Za-z0-9+/=]"),
    "base32": (base64.b32encode, base64.b32decode, 5, 8, rb"[A-Z2-7=]"),
}


@command("base64", help=_HELP.format(name="base64", name_cap="Base64", alphabet="base64"))
async def base64_cmd(ctx: CommandContext) -> int:
    return await _run(ctx)


@command("base32", help=_HELP.format(name="base32", name_cap="Base32", alphabet="base32"))
async def base32_cmd(ctx: CommandContext) -> int:
    return await _run(ctx)


async def _run(ctx: CommandContext) -> int:
    opts, files = getopt(ctx.args, "diw:", {"decode": "d", "ignore-garbage": "i", "wrap=": "w"}, status=1)
    decode = ignore = False
    wrap = 76
    for o, v in opts:
        if o == "d":
            decode = True
        elif o == "i":
            ignore = True
        elif o == "w":
            if not isdigits(v):
                await ctx.error(f"invalid wrap size: {quote(v, 'locale')}")
                return 1
            wrap = int(v)
    if len(files) > 1:
        raise UsageError(f"extra operand {quote(files[1], 'locale')}", 1)
    path = files[0] if files else "-"
    try:
        inp = ctx.open_input(path)
    except FSError as e:
        await ctx.file_error(path, e)
        return 1
    encode_fn, decode_fn, group_in, group_out, alphabet = _CODECS[ctx.name]
    try:
        if decode:
            return await _decode(ctx, inp, decode_fn, group_out, alphabet, ignore)
        await _encode(ctx, inp, encode_fn, group_in, wrap)
    except FSError as e:
        await ctx.file_error(path, e)
        return 1
    return 0


async def _encode(ctx, inp, encode_fn, group_in, wrap) -> None:
    pending = b""
    column = 0
    while True:
        chunk = await inp.read_some()
        final = not chunk
        pending += chunk
        usable = len(pending) if final else len(pending) - len(pending) % group_in
        if usable:
            text = encode_fn(pending[:usable])
            pending = pending[usable:]
            if wrap:
                pieces = []
                pos = 0
                while pos < len(text):
                    take = min(wrap - column, len(text) - pos)
                    pieces.append(text[pos:pos + take])
                    pos += take
                    column += take
                    if column == wrap:
                        pieces.append(b"\n")
                        column = 0
                text = b"".join(pieces)
            await ctx.stdout.write(text)
        if final:
            break
        await ctx.checkpoint()
    if wrap and column:
        await ctx.stdout.write(b"\n")


async def _decode(ctx, inp, decode_fn, group_out, alphabet, ignore) -> int:
    not_alphabet = re.compile(rb"(?!" + alphabet + rb").", re.S)
    pending = b""
    while True:
        chunk = await inp.read_some()
        final = not chunk
        garbage = False
        if chunk:
            chunk = not_alphabet.sub(b"", chunk) if ignore else chunk.replace(b"\n", b"")
            bad = None if ignore else not_alphabet.search(chunk)
            if bad:
                chunk, garbage = chunk[:bad.start()], True
            pending += chunk
        usable = len(pending) - len(pending) % group_out
        block, pending = pending[:usable], pending[usable:]
        if not await _emit(ctx, decode_fn, block, group_out):
            garbage = True
        if garbage:
            await ctx.error("invalid input")
            return 1
        if final:
            if pending:
                # GNU writes what a truncated last group holds, then fails
                data = pending.rstrip(b"=")
                await _emit(ctx, decode_fn, data + b"=" * (group_out - len(data)), group_out)
                await ctx.error("invalid input")
                return 1
            return 0
        await ctx.checkpoint()


async def _emit(ctx, decode_fn, block: bytes, group: int) -> bool:
    """Decode whole groups; False (after writing the good prefix) at an invalid group."""
    if not block:
        return True
    if b"=" not in block[:-group]:
        try:
            await ctx.stdout.write(decode_fn(block))
            return True
        except (binascii.Error, ValueError):
            pass
    # padding inside the data (concatenated encodings) or a bad group: one group at a time
    good = []
    ok = True
    for i in range(0, len(block), group):
        try:
            good.append(decode_fn(block[i:i + group]))
        except (binascii.Error, ValueError):
            ok = False
            break
    await ctx.stdout.write(b"".join(good))
    return ok
