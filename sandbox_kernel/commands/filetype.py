"""file: guess a file's type from its content (magic bytes, text encoding, shebang)."""
from __future__ import annotations

import stat as st
import struct

from ..chars import isdigits
from ..vfs import FSError
from ._lib.dates import local_datetime
from .options import getopt
from .registry import CommandContext, command

FILE_HELP = """\
Usage: file [OPTION...] [FILE...]
Determine type of FILEs.

  -b, --brief                do not prepend filenames to output lines
  -f, --files-from FILE      read the filenames to be examined from FILE
  -F, --separator STRING     use string as separator instead of `:'
  -i, --mime                 output MIME type strings (--mime-type and
                               --mime-encoding)
      --mime-type            output the MIME type
      --mime-encoding        output the MIME encoding
  -L, --dereference          follow symlinks
  -h, --no-dereference       don't follow symlinks (default)
  -N, --no-pad               do not pad output
  -0, --print0               terminate filenames with ASCII NUL
      --help                 display this help and exit

Recognised: text (ASCII, UTF-8, ISO-8859, line terminators, long lines), scripts by
shebang, JSON, HTML, XML, PNG, JPEG, GIF, WebP, BMP, PDF, ZIP, gzip, bzip2, xz, zstd, tar,
ELF, SQLite, WebAssembly; directories, empty files, symlinks and devices."""

SAMPLE = 1 << 20  # libmagic looks at the first MiB, like we do

_TEXT_BYTES = set(range(0x20, 0x7F)) | {7, 8, 9, 10, 11, 12, 13, 27}

SCRIPT_NAMES = {
    "sh": ("POSIX shell script", "text/x-shellscript"),
    "dash": ("POSIX shell script", "text/x-shellscript"),
    "bash": ("Bourne-Again shell script", "text/x-shellscript"),
    "zsh": ("Paul Falstad's zsh script", "text/x-shellscript"),
    "python": ("Python script", "text/x-script.python"),
    "python3": ("Python script", "text/x-script.python"),
    "python2": ("Python script", "text/x-script.python"),
    "perl": ("Perl script text", "text/x-perl"),
    "ruby": ("Ruby script", "text/x-ruby"),
    "node": ("Node.js script", "application/javascript"),
    "awk": ("awk script", "text/x-awk"),
    "gawk": ("GNU awk script", "text/x-awk"),
    "php": ("PHP script", "text/x-php"),
}


class Verdict:
    def __init__(self, desc: str, mime: str, encoding: str = "binary") -> None:
        self.desc = desc
        self.mime = mime
        self.encoding = encoding


def _png(data: bytes) -> Verdict:
    desc = "PNG image data"
    if len(data) >= 29 and data[12:16] == b"IHDR":
        w, h, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
        kinds = {0: "grayscale", 2: "RGB", 3: "colormap", 4: "gray+alpha", 6: "RGBA"}
        desc += f", {w} x {h}, {depth}-bit"
        desc += f"/color {kinds[color]}" if color in kinds else ""
        desc += ", interlaced" if interlace else ", non-interlaced"
    return Verdict(desc, "image/png")


_SOF_KINDS = {0xC0: "baseline", 0xC1: "extended sequential", 0xC2: "progressive",
              0xC3: "lossless", 0xC9: "extended sequential, arithmetic coding",
              0xCA: "progressive, arithmetic coding"}


def _jpeg(data: bytes) -> Verdict:
    parts = ["JPEG image data"]
    pos = 2
    n = len(data)
    while pos + 4 <= n and data[pos] == 0xFF:
        marker = data[pos + 1]
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        body = data[pos + 4:pos + 2 + length]
        if marker == 0xE0 and body.startswith(b"JFIF\0") and len(body) >= 12:
            units = {0: "aspect ratio", 1: "resolution (DPI)", 2: "resolution (DPCM)"}.get(body[7], "")
            dx, dy = struct.unpack(">HH", body[8:12])
            parts.append(f"JFIF standard {body[5]}.{body[6]:02d}")
            if units:
                parts.append(units)
            parts.append(f"density {dx}x{dy}")
            parts.append(f"segment length {length}")
            if len(body) >= 14 and (body[12] or body[13]):
                parts.append(f"thumbnail {body[12]}x{body[13]}")
        elif marker == 0xE1 and body.startswith(b"Exif\0\0") and len(body) >= 14:
            tiff = body[6:]
            endian = {b"II": ("<", "little"), b"MM": (">", "big")}.get(tiff[:2])
            text = "Exif standard: [TIFF image data"
            if endian:
                ifd = struct.unpack(endian[0] + "I", tiff[4:8])[0]
                text += f", {endian[1]}-endian"
                if ifd + 2 <= len(tiff):
                    text += f", direntries={struct.unpack(endian[0] + 'H', tiff[ifd:ifd + 2])[0]}"
            parts.append(text + "]")
        elif marker in _SOF_KINDS and len(body) >= 6:
            precision = body[0]
            height, width = struct.unpack(">HH", body[1:5])
            parts += [_SOF_KINDS[marker], f"precision {precision}", f"{width}x{height}",
                      f"components {body[5]}"]
            break
        elif marker == 0xDA:
            break
        pos += 2 + length
    return Verdict(", ".join(parts), "image/jpeg")


def _gif(data: bytes) -> Verdict:
    desc = f"GIF image data, version {data[3:6].decode('latin-1')}"
    if len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        desc += f", {w} x {h}"
    return Verdict(desc, "image/gif")


def _zip(data: bytes) -> Verdict:
    if len(data) < 30:
        return Verdict("Zip archive data", "application/zip")
    version = struct.unpack("<H", data[4:6])[0]
    method = struct.unpack("<H", data[8:10])[0]
    methods = {0: "store", 8: "deflate", 9: "deflate64", 12: "bzip2", 14: "lzma", 93: "zstd"}
    name_len = struct.unpack("<H", data[26:28])[0]
    name = data[30:30 + name_len]
    if name == b"mimetype":
        return Verdict("Zip data (MIME type \"" + data[38 + name_len:38 + name_len + 40].split(b"PK")[0]
                       .decode("latin-1", "replace") + "\"?)", "application/zip")
    desc = f"Zip archive data, at least v{version // 10}.{version % 10} to extract"
    desc += f", compression method={methods.get(method, method)}"
    return Verdict(desc, "application/zip")


def _gzip(data: bytes, size_tail: bytes, env) -> Verdict:
    parts = ["gzip compressed data"]
    flags = data[3] if len(data) > 3 else 0
    mtime = struct.unpack("<I", data[4:8])[0] if len(data) >= 8 else 0
    xfl = data[8] if len(data) > 8 else 0
    os_byte = data[9] if len(data) > 9 else 255
    pos = 10
    if flags & 4 and len(data) >= pos + 2:
        pos += 2 + struct.unpack("<H", data[pos:pos + 2])[0]
    if flags & 8:
        end = data.find(b"\0", pos)
        if end > 0:
            parts.append(f'was "{data[pos:end].decode("latin-1")}"')
    if mtime:
        dt = local_datetime(mtime, env)
        parts.append(f"last modified: {dt:%a %b} {dt.day:2d} {dt:%H:%M:%S %Y}")
    if xfl == 2:
        parts.append("max compression")
    elif xfl == 4:
        parts.append("max speed")
    systems = {0: "FAT filesystem (MS-DOS, OS/2, NT)", 3: "Unix", 7: "Macintosh",
               11: "NTFS filesystem (NT)", 255: "unknown"}
    if os_byte in systems:
        parts.append(f"from {systems[os_byte]}")
    if len(size_tail) == 4:
        parts.append(f"original size modulo 2^32 {struct.unpack('<I', size_tail)[0]}")
    return Verdict(", ".join(parts), "application/gzip")


_ELF_MACHINES = {3: "Intel 80386", 0x3E: "x86-64", 0x28: "ARM", 0xB7: "ARM aarch64",
                 0xF3: "UCB RISC-V", 8: "MIPS", 0x14: "PowerPC",
                 0x15: "64-bit PowerPC or cisco 7500", 0x2B: "SPARC V9"}


def _elf(data: bytes, read_at) -> Verdict:
    """ELF header, program headers (interpreter, dynamic), notes (build id, ABI) and section
    headers (stripped?) like libmagic's elf module."""
    if len(data) < 52 or data[4] not in (1, 2):
        return Verdict("ELF", "application/octet-stream")
    is64 = data[4] == 2
    little = data[5] == 1
    e = "<" if little else ">"
    word = "Q" if is64 else "I"
    e_type, machine = struct.unpack(e + "HH", data[16:20])
    if is64:
        phoff, shoff = struct.unpack(e + "QQ", data[32:48])
        phentsize, phnum, shentsize, shnum = struct.unpack(e + "HHHH", data[54:62])
    else:
        phoff, shoff = struct.unpack(e + "II", data[28:36])
        phentsize, phnum, shentsize, shnum = struct.unpack(e + "HHHH", data[42:50])
    interp = None
    dynamic = pie = False
    notes: list[str] = []
    try:
        for i in range(min(phnum, 256)):
            ph = read_at(phoff + i * phentsize, phentsize)
            p_type = struct.unpack(e + "I", ph[:4])[0]
            if is64:
                p_offset, p_filesz = struct.unpack(e + "Q", ph[8:16])[0], struct.unpack(e + "Q", ph[32:40])[0]
            else:
                p_offset, p_filesz = struct.unpack(e + "I", ph[4:8])[0], struct.unpack(e + "I", ph[16:20])[0]
            if p_type == 3:
                interp = read_at(p_offset, min(p_filesz, 4096)).rstrip(b"\0").decode("latin-1")
            elif p_type == 2:
                dynamic = True
                pie = pie or _has_pie_flag(read_at(p_offset, min(p_filesz, 65536)), e, word)
            elif p_type == 4:
                notes += _elf_notes(read_at(p_offset, min(p_filesz, 65536)), e)
        stripped = None
        if shoff and shnum:
            stripped = True
            for i in range(min(shnum, 4096)):
                sh = read_at(shoff + i * shentsize, shentsize)
                if len(sh) >= 8 and struct.unpack(e + "I", sh[4:8])[0] == 2:  # SHT_SYMTAB
                    stripped = False
                    break
    except struct.error:
        stripped = None
    kinds = {1: ("relocatable", "application/x-object"), 2: ("executable", "application/x-executable"),
             4: ("core file", "application/x-coredump")}
    if e_type == 3:
        kind, mime = (("pie executable", "application/x-pie-executable") if pie
                      else ("shared object", "application/x-sharedlib"))
    else:
        kind, mime = kinds.get(e_type, ("unknown type", "application/octet-stream"))
    osabi = {0: "SYSV", 3: "GNU/Linux", 9: "FreeBSD"}.get(data[7], str(data[7]))
    parts = [f"ELF {'64' if is64 else '32'}-bit {'LSB' if little else 'MSB'} {kind}",
             _ELF_MACHINES.get(machine, f"unknown arch 0x{machine:x}"),
             f"version {data[6]} ({osabi})"]
    if e_type in (2, 3):
        parts.append("dynamically linked" if dynamic or interp is not None else "statically linked")
        if interp:
            parts.append(f"interpreter {interp}")
    parts += notes
    if stripped is not None and e_type != 4:
        parts.append("stripped" if stripped else "not stripped")
    return Verdict(", ".join(parts), mime)


def _has_pie_flag(dynamic: bytes, e: str, word: str) -> bool:
    """DT_FLAGS_1 with DF_1_PIE: what tells a PIE program from a shared library."""
    size = struct.calcsize(e + word)
    for pos in range(0, len(dynamic) - 2 * size + 1, 2 * size):
        tag, value = struct.unpack(e + word + word, dynamic[pos:pos + 2 * size])
        if tag == 0:
            break
        if tag == 0x6FFFFFFB:
            return bool(value & 0x08000000)
    return False


def _elf_notes(blob: bytes, e: str) -> list[str]:
    out = []
    pos = 0
    while pos + 12 <= len(blob):
        namesz, descsz, ntype = struct.unpack(e + "III", blob[pos:pos + 12])
        name_end = pos + 12 + namesz
        desc_start = pos + 12 + ((namesz + 3) & ~3)
        desc = blob[desc_start:desc_start + descsz]
        name = blob[pos + 12:name_end].rstrip(b"\0")
        if name == b"GNU":
            if ntype == 3 and desc:
                algo = {16: "md5/uuid", 20: "sha1", 8: "xxHash"}.get(len(desc), "unknown")
                out.append(f"BuildID[{algo}]={desc.hex()}")
            elif ntype == 1 and len(desc) >= 16:
                os_id, major, minor, sub = struct.unpack(e + "IIII", desc[:16])
                system = {0: "GNU/Linux", 1: "GNU/Hurd", 2: "Solaris", 3: "FreeBSD"}.get(os_id, "unknown")
                out.append(f"for {system} {major}.{minor}.{sub}")
        pos = desc_start + ((descsz + 3) & ~3)
    return out


def _magic(data: bytes, tail: bytes, env, read_at) -> Verdict | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return _png(data)
    if data.startswith(b"\xff\xd8\xff"):
        return _jpeg(data)
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return _gif(data)
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return Verdict("RIFF (little-endian) data, Web/P image", "image/webp")
    if data.startswith(b"BM") and len(data) > 26 and data[14] in (12, 40, 56, 108, 124):
        w, h = struct.unpack("<ii", data[18:26])
        return Verdict(f"PC bitmap, Windows 3.x format, {w} x {abs(h)}", "image/bmp")
    if data.startswith(b"%PDF-"):
        version = data[5:8].decode("latin-1", "replace")
        charset = "us-ascii" if all(b in _TEXT_BYTES for b in data[:64]) else "binary"
        return Verdict(f"PDF document, version {version}", "application/pdf", charset)
    if data.startswith(b"PK\x03\x04"):
        return _zip(data)
    if data.startswith(b"PK\x05\x06"):
        return Verdict("Zip archive data (empty)", "application/zip")
    if data.startswith(b"\x1f\x8b"):
        return _gzip(data, tail, env)
    if data.startswith(b"BZh") and isdigits(data[3:4]):
        return Verdict(f"bzip2 compressed data, block size = {int(data[3:4]) * 100}k",
                       "application/x-bzip2")
    if data.startswith(b"\xfd7zXZ\x00"):
        checks = {0: "none", 1: "CRC32", 4: "CRC64", 10: "SHA-256"}
        check = checks.get(data[7] & 0x0F, "unknown") if len(data) > 7 else "unknown"
        return Verdict(f"XZ compressed data, checksum {check}", "application/x-xz")
    if data.startswith(b"\x28\xb5\x2f\xfd"):
        return Verdict("Zstandard compressed data (v0.8+)", "application/zstd")
    if data.startswith(b"7z\xbc\xaf\x27\x1c"):
        return Verdict(f"7-zip archive data, version {data[6]}.{data[7]}", "application/x-7z-compressed")
    if data.startswith(b"\x7fELF"):
        return _elf(data, read_at)
    if data.startswith(b"SQLite format 3\0"):
        return Verdict("SQLite 3.x database", "application/vnd.sqlite3")
    if data.startswith(b"\0asm"):
        version = struct.unpack("<I", data[4:8])[0] if len(data) >= 8 else 0
        return Verdict(f"WebAssembly (wasm) binary module version 0x{version:x} (MVP)", "application/wasm")
    if len(data) >= 263 and data[257:262] == b"ustar":
        if data[257:265] == b"ustar  \0":
            return Verdict("POSIX tar archive (GNU)", "application/x-tar")
        return Verdict("POSIX tar archive", "application/x-tar")
    return None


def _text(data: bytes) -> Verdict | None:
    """libmagic's text classification (encoding and line-terminator notes)."""
    bom = data.startswith(b"\xef\xbb\xbf")
    body = data[3:] if bom else data
    if all(b in _TEXT_BYTES for b in body) and not bom:
        label, charset = "ASCII text", "us-ascii"
    else:
        try:
            text = body.decode("utf-8")
            if any(ord(c) < 0x20 and ord(c) not in (7, 8, 9, 10, 11, 12, 13, 27) or ord(c) == 0x7F
                   for c in text):
                return None
            label = "Unicode text, UTF-8 (with BOM) text" if bom else "Unicode text, UTF-8 text"
            charset = "utf-8"
        except UnicodeDecodeError:
            if all(b in _TEXT_BYTES or b >= 0xA0 for b in body):
                label, charset = "ISO-8859 text", "iso-8859-1"
            elif all(b in _TEXT_BYTES or b >= 0x80 for b in body):
                label, charset = "Non-ISO extended-ASCII text", "unknown-8bit"
            else:
                return None
    notes = []
    crlf = body.count(b"\r\n")
    lf = body.count(b"\n") - crlf
    cr = body.count(b"\r") - crlf
    lines = body.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
    longest = max((len(x) for x in lines), default=0)
    if longest > 300:
        notes.append(f"with very long lines ({longest})")
    terms = [name for name, n in (("CRLF", crlf), ("CR", cr), ("LF", lf)) if n]
    if not terms:
        notes.append("with no line terminators")
    elif terms != ["LF"]:
        notes.append("with " + ", ".join(terms) + " line terminators")
    if b"\x1b" in body:
        notes.append("with escape sequences")
    if b"\b" in body:
        notes.append("with overstriking")
    return Verdict(", ".join([label] + notes), "text/plain", charset)


def _script(data: bytes, text: Verdict) -> Verdict | None:
    if not data.startswith(b"#!"):
        return None
    first = data[2:].split(b"\n", 1)[0].decode("latin-1").strip()
    words = first.split()
    if not words:
        return None
    interp = words[0].rsplit("/", 1)[-1]
    if interp == "env" and len(words) > 1:
        rest = [w for w in words[1:] if not w.startswith("-")]
        interp = rest[0].rsplit("/", 1)[-1] if rest else "env"
    base = interp.rstrip("0123456789.") if interp.startswith("python") else interp
    key = interp if interp in SCRIPT_NAMES else base
    text_label = text.desc
    if key in SCRIPT_NAMES:
        name, mime = SCRIPT_NAMES[key]
        if key == "perl":
            return Verdict(f"{name} executable", mime, text.encoding)
        if key == "node":
            return Verdict(f"{name} executable, {text_label}", mime, text.encoding)
        return Verdict(f"{name}, {text_label} executable", mime, text.encoding)
    return Verdict(f"a {words[0]} script, {text_label} executable", "text/plain", text.encoding)


def _structured(data: bytes, text: Verdict) -> Verdict | None:
    stripped = data.lstrip()
    lower = stripped[:256].lower()
    if lower.startswith(b"<?xml"):
        return Verdict(f"XML 1.0 document, {text.desc}", "text/xml", text.encoding)
    if lower.startswith(b"<!doctype html") or lower.startswith(b"<html") or \
            (lower.startswith(b"<") and (b"<head" in lower or b"<body" in lower or b"<title" in lower)):
        return Verdict(f"HTML document, {text.desc}", "text/html", text.encoding)
    if stripped[:1] in (b"{", b"[") and len(data) < SAMPLE:
        import json

        try:
            value = json.loads(data.decode("utf-8"))
            if isinstance(value, (dict, list)) and value:
                return Verdict("JSON text data", "application/json", text.encoding)
        except (ValueError, UnicodeDecodeError):
            pass
    return None


def classify(ctx: CommandContext, path: str, follow: bool) -> Verdict:
    s = ctx.fs.stat(path, ctx.cwd) if follow else ctx.fs.lstat(path, ctx.cwd)
    verdict, kind = _classify(ctx, path, s)
    specials = [word for bit, word in ((st.S_ISUID, "setuid"), (st.S_ISGID, "setgid"),
                                       (st.S_ISVTX, "sticky")) if s.st_mode & bit]
    if specials and not st.S_ISLNK(s.st_mode):
        # libmagic's spacing differs by how the type was found
        joiner = {"magic": " ", "text": " , "}.get(kind, ", ")
        verdict.desc = ", ".join(specials) + joiner + verdict.desc
    return verdict


def _classify(ctx: CommandContext, path: str, s) -> tuple[Verdict, str]:
    """(verdict, how it was found: "inode" | "magic" | "text")."""
    fs, cwd = ctx.fs, ctx.cwd
    mode = s.st_mode
    if st.S_ISLNK(mode):
        target = fs.readlink(path, cwd)
        if fs.exists(path, cwd):
            return Verdict(f"symbolic link to {target}", "inode/symlink"), "inode"
        return Verdict(f"broken symbolic link to {target}", "inode/symlink"), "inode"
    if st.S_ISDIR(mode):
        return Verdict("directory", "inode/directory"), "inode"
    if st.S_ISCHR(mode):
        name = fs.realpath(path, cwd).rsplit("/", 1)[-1]
        numbers = {"null": "1/3", "zero": "1/5", "random": "1/8", "urandom": "1/9"}.get(name, "5/0")
        return Verdict(f"character special ({numbers})", "inode/chardevice"), "inode"
    if st.S_ISFIFO(mode):
        return Verdict("fifo (named pipe)", "inode/fifo"), "inode"
    if s.st_size == 0:
        return Verdict("empty", "inode/x-empty"), "inode"
    with fs.open(path, "rb", cwd=cwd) as handle:
        data = handle.read(SAMPLE)
        tail = b""
        if data.startswith(b"\x1f\x8b") and handle.size >= 4:
            handle.seek(handle.size - 4)
            tail = handle.read(4)

        def read_at(offset: int, n: int) -> bytes:
            handle.seek(offset)
            return handle.read(n)

        found = _magic(data, tail, ctx.env, read_at)
    if found is not None:
        return found, "magic"
    text = _text(data)
    if text is None:
        return Verdict("data", "application/octet-stream"), "magic"
    return _script(data, text) or _structured(data, text) or text, "text"


@command("file", help=FILE_HELP)
async def file_cmd(ctx: CommandContext) -> int:
    opts, operands = getopt(ctx.args, "bcEf:F:hiLkNnprsvz0", {
        "brief": "b", "files-from=": "f", "separator=": "F", "mime": "i", "mime-type": None,
        "mime-encoding": None, "dereference": "L", "no-dereference": "h", "no-pad": "N",
        "print0": "0", "keep-going": "k", "raw": "r", "special-files": "s",
        "uncompress": "z", "no-buffer": "n", "preserve-date": "p", "version": "v"}, status=1)
    brief = no_pad = print0 = False
    follow = False
    mime = ""
    separator = ":"
    names_from: list[str] = []
    for key, val in opts:
        if key == "b":
            brief = True
        elif key == "L":
            follow = True
        elif key == "h":
            follow = False
        elif key == "i":
            mime = "full"
        elif key == "mime-type":
            mime = "type"
        elif key == "mime-encoding":
            mime = "encoding"
        elif key == "N":
            no_pad = True
        elif key == "0":
            print0 = True
        elif key == "F":
            separator = val or ""
        elif key == "f":
            names_from.append(val or "")
        elif key == "v":
            await ctx.out("file-5.44 (sandbox_kernel)\n")
            return 0
    names = list(operands)
    for source in names_from:
        try:
            if source == "-":
                data = await ctx.stdin.read()
            else:
                data = ctx.read_file(source)
        except FSError as e:
            await ctx.error(f"Cannot open `{source}' ({e.strerror}).")
            return 1
        names.extend(line for line in data.decode("utf-8", "surrogateescape").splitlines() if line)
    if not names:
        await ctx.err("Usage: file [-bcdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n"
                      "            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n"
                      "            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n"
                      "            <file> ...\n"
                      "       file -C [-m <magicfiles>]\n       file [--help]\n")
        return 1
    width = max(len(n) for n in names) + len(separator)
    lines = []
    for name in names:
        try:
            v = classify(ctx, name, follow)
            if mime == "full":
                broken = v.mime == "inode/symlink" and v.desc.startswith("broken")
                text = v.mime if broken else f"{v.mime}; charset={v.encoding}"
            elif mime == "type":
                text = v.mime
            elif mime == "encoding":
                text = v.encoding
            else:
                text = v.desc
        except FSError as e:
            text = f"cannot open `{name}' ({e.strerror})"
        if brief:
            lines.append(text + "\n")
        elif print0:
            lines.append(f"{name}\0 {text}\n")
        else:
            label = name + separator
            lines.append(f"{label if no_pad else label.ljust(width)} {text}\n")
    await ctx.out("".join(lines))
    return 0


