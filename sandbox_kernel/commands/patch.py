"""patch: apply unified diffs (diff -u, diff -ruN, git diff), and normal diffs to a named
file, in the VFS, with GNU patch's messages: offsets, failed hunks and .rej files,
reversed-patch detection, creating and deleting files, -p N, -R, -N, -i, -o, -d, --dry-run."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import memory
from ..chars import isdigits
from ..vfs import FSError, normpath
from .options import UsageError, getopt
from .registry import CommandContext, command

PATCH_HELP = """Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]

Input options:

  -p NUM  --strip=NUM  Strip NUM leading components from file names.
  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching.
  -R  --reverse  Assume patches were created with old and new files swapped.
  -N  --forward  Ignore patches that appear to be reversed or already applied.
  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.

Output options:

  -o FILE  --output=FILE  Output patched files to FILE.
  -r FILE  --reject-file=FILE  Output rejects to FILE.
  -E  --remove-empty-files  Remove output files that are empty after patching.
  -b  --backup  Back up the original contents of each file.
  --no-backup-if-mismatch  Back up only if otherwise requested.
  --dry-run  Do not actually change any files; just print what would happen.
  -s  --quiet  --silent  Work silently unless an error occurs.
  -t  --batch  Ask no questions; skip bad-Prereq patches; assume reversed.
  -f  --force  Like -t, but ignore bad-Prereq patches, and assume unreversed.
  -d DIR  --directory=DIR  Change the working directory to DIR first.
  -u  --unified  Interpret the patch as a unified diff.
"""

_LONG = {"strip=": "p", "fuzz=": "F", "reverse": "R", "forward": "N", "input=": "i",
         "output=": "o", "reject-file=": "r", "remove-empty-files": "E", "backup": "b",
         "no-backup-if-mismatch": None, "backup-if-mismatch": None, "dry-run": None,
         "quiet": "s", "silent": "s", "batch": "t", "force": "f", "directory=": "d",
         "unified": "u", "verbose": None, "posix": None, "binary": None}

_HUNK = re.compile(r"^@@ -([0-9]+)(?:,([0-9]+))? \+([0-9]+)(?:,([0-9]+))? @@")


#: What patch holds per line of a file or of the patch beyond its bytes (the line, its hunk or
#: result entry), measured with tracemalloc.
PATCH_LINE_COST = 192


def _hold_lines(data: bytes) -> None:
    """Count a text patch holds as lines: the copies in its lines and result, and each line."""
    memory.charge(2 * len(data) + data.count(b"\n") * PATCH_LINE_COST)


@dataclass
class Hunk:
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    old_lines: list[bytes] = field(default_factory=list)
    new_lines: list[bytes] = field(default_factory=list)
    text: list[bytes] = field(default_factory=list)  # the hunk as written, for .rej files

    def reversed(self) -> "Hunk":
        swapped = [_swap_marker(t) for t in self.text]
        return Hunk(self.new_start, self.new_count, self.old_start, self.old_count,
                    list(self.new_lines), list(self.old_lines), swapped)


def _swap_marker(line: bytes) -> bytes:
    if line.startswith(b"@@"):
        m = _HUNK.match(line.decode("latin-1"))
        if m:
            o1, o2, n1, n2 = m.groups()
            old = o1 + ("," + o2 if o2 is not None else "")
            new = n1 + ("," + n2 if n2 is not None else "")
            return f"@@ -{new} +{old} @@".encode() + line[m.end():]
    if line.startswith(b"-"):
        return b"+" + line[1:]
    if line.startswith(b"+"):
        return b"-" + line[1:]
    return line


@dataclass
class FilePatch:
    old_name: str
    new_name: str
    header: list[bytes]       # the '---'/'+++' lines, for .rej files
    leading: list[bytes]      # text before the header, for "can't find file" reports
    header_line: int          # input line number of the '+++' line
    hunks: list[Hunk] = field(default_factory=list)
    old_epoch: bool = False   # timestamp 1970-01-01: the file does not exist on that side
    new_epoch: bool = False
    git_new: bool = False
    git_deleted: bool = False


class PatchSyntaxError(Exception):
    pass


def _header_name(raw: bytes) -> tuple[str, bool]:
    text = raw.decode("utf-8", "surrogateescape").rstrip("\n").rstrip("\r")
    name, _, stamp = text.partition("\t")
    if not stamp and re.search(r"\s[0-9]{4}-[0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]:[0-9][0-9]", name):
        name, stamp = re.split(r"\s+(?=[0-9]{4}-[0-9][0-9]-[0-9][0-9] )", name, maxsplit=1)
    if name.startswith('"') and name.endswith('"') and len(name) > 1:
        name = name[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
    epoch = bool(re.match(r"\s*1970-01-01 00:00:00|\s*1969-12-31 ", stamp))
    return name.strip() if not stamp else name, epoch


_NORMAL_COMMAND = re.compile(rb"^(\d+)(?:,(\d+))?([acd])(\d+)(?:,(\d+))?\r?\n?$")


def parse_normal_diff(data: bytes) -> FilePatch | None:
    """A plain `diff` (normal format) patch; it names no file, so the target must be given."""
    lines = data.splitlines(keepends=True)
    if not lines or not _NORMAL_COMMAND.match(lines[0]):
        return None
    fp = FilePatch("", "", [], [], 1)
    i = 0
    while i < len(lines):
        m = _NORMAL_COMMAND.match(lines[i])
        if not m:
            raise PatchSyntaxError(f"malformed patch at line {i + 1}: {lines[i].decode('latin-1').rstrip()}")
        a1, a2, cmd, b1, b2 = m.groups()
        a_lo, a_hi = int(a1), int(a2 or a1)
        b_lo, b_hi = int(b1), int(b2 or b1)
        old_count = 0 if cmd == b"a" else a_hi - a_lo + 1
        new_count = 0 if cmd == b"d" else b_hi - b_lo + 1
        hunk = Hunk(a_lo, old_count, b_lo, new_count, text=[lines[i]])
        i += 1
        for want, prefix, target in ((old_count, b"< ", hunk.old_lines), (new_count, b"> ", hunk.new_lines)):
            if target is hunk.new_lines and old_count and new_count:
                if i >= len(lines) or lines[i].rstrip(b"\r\n") != b"---":
                    raise PatchSyntaxError(f"malformed patch at line {i + 1}")
                hunk.text.append(lines[i])
                i += 1
            for _ in range(want):
                if i >= len(lines) or not lines[i].startswith(prefix):
                    raise PatchSyntaxError(f"malformed patch at line {i + 1}")
                body = lines[i][2:]
                hunk.text.append(lines[i])
                i += 1
                if i < len(lines) and lines[i].startswith(b"\\"):
                    hunk.text.append(lines[i])
                    i += 1
                    body = body.rstrip(b"\n")
                elif not body.endswith(b"\n"):
                    body += b"\n"
                target.append(body)
        fp.hunks.append(hunk)
    return fp


def parse_patch(data: bytes) -> list[FilePatch]:
    lines = data.splitlines(keepends=True)
    patches: list[FilePatch] = []
    i = 0
    leading: list[bytes] = []
    git_new = git_deleted = False
    while i < len(lines):
        line = lines[i]
        if line.startswith(b"diff --git "):
            git_new = git_deleted = False
        elif line.startswith(b"new file mode"):
            git_new = True
        elif line.startswith(b"deleted file mode"):
            git_deleted = True
        if line.startswith(b"--- ") and i + 1 < len(lines) and lines[i + 1].startswith(b"+++ "):
            old_name, old_epoch = _header_name(line[4:])
            new_name, new_epoch = _header_name(lines[i + 1][4:])
            fp = FilePatch(old_name, new_name, [line, lines[i + 1]], leading + [line, lines[i + 1]],
                           i + 3, old_epoch=old_epoch, new_epoch=new_epoch,
                           git_new=git_new, git_deleted=git_deleted)
            i += 2
            while i < len(lines) and lines[i].startswith(b"@@"):
                hunk, i = _parse_hunk(lines, i)
                fp.hunks.append(hunk)
            patches.append(fp)
            leading = []
            git_new = git_deleted = False
            continue
        leading.append(line)
        i += 1
    return patches


def _parse_hunk(lines: list[bytes], i: int) -> tuple[Hunk, int]:
    m = _HUNK.match(lines[i].decode("latin-1"))
    if not m:
        raise PatchSyntaxError(f"malformed patch at line {i + 1}: {lines[i].decode('latin-1').rstrip()}")
    o1, o2, n1, n2 = m.groups()
    hunk = Hunk(int(o1), 1 if o2 is None else int(o2), int(n1), 1 if n2 is None else int(n2))
    hunk.text.append(lines[i])
    i += 1
    old_left, new_left = hunk.old_count, hunk.new_count
    last_kind = None
    while i < len(lines) and (old_left > 0 or new_left > 0 or lines[i].startswith(b"\\")):
        line = lines[i]
        if line.startswith(b"\\"):
            # "\ No newline at end of file" applies to the line before it
            if last_kind in (" ", "-") and hunk.old_lines:
                hunk.old_lines[-1] = hunk.old_lines[-1].rstrip(b"\n")
            if last_kind in (" ", "+") and hunk.new_lines:
                hunk.new_lines[-1] = hunk.new_lines[-1].rstrip(b"\n")
            hunk.text.append(line)
            i += 1
            continue
        kind = chr(line[0]) if line else " "
        body = line[1:] if line else b"\n"
        if line in (b"\n", b"\r\n"):
            kind, body = " ", line  # an empty context line whose space was stripped
        if not body.endswith(b"\n"):
            body += b"\n"
        if kind == " ":
            hunk.old_lines.append(body)
            hunk.new_lines.append(body)
            old_left -= 1
            new_left -= 1
        elif kind == "-":
            hunk.old_lines.append(body)
            old_left -= 1
        elif kind == "+":
            hunk.new_lines.append(body)
            new_left -= 1
        else:
            raise PatchSyntaxError(f"malformed patch at line {i + 1}: {line.decode('latin-1').rstrip()}")
        if old_left < 0 or new_left < 0:
            raise PatchSyntaxError(f"malformed patch at line {i + 1}: {line.decode('latin-1').rstrip()}")
        last_kind = kind
        hunk.text.append(line if line.endswith(b"\n") else line + b"\n")
        i += 1
    if old_left > 0 or new_left > 0:
        raise PatchSyntaxError("unexpected end of file in patch")
    return hunk, i


def _strip(name: str, strip: int | None) -> str:
    if strip is None:
        return name.rsplit("/", 1)[-1]
    parts = name.split("/")
    # -pN removes N leading components (runs of slashes count as one separator)
    k = 0
    removed = 0
    while removed < strip and k < len(parts):
        if parts[k] == "" and k + 1 < len(parts) and parts[k + 1] == "":
            k += 1
            continue
        k += 1
        removed += 1
    if removed < strip:
        return ""
    return "/".join(parts[k:])


def _find(lines: list[bytes], pattern: list[bytes], expected: int, lowest: int) -> int | None:
    """Position where ``pattern`` matches, nearest to ``expected`` (GNU tries forward then
    backward at each distance), never before ``lowest``."""
    n = len(pattern)
    limit = len(lines) - n
    if n == 0:
        return min(max(expected, lowest), len(lines))
    max_offset = max(expected - lowest, limit - expected, 0)
    for off in range(max_offset + 1):
        for pos in ((expected + off, expected - off) if off else (expected,)):
            if lowest <= pos <= limit and lines[pos:pos + n] == pattern:
                return pos
    return None


@command("patch", help=PATCH_HELP)
async def patch(ctx: CommandContext) -> int:
    try:
        opts, operands = getopt(ctx.args, "p:F:RNi:o:r:EbstfDd:uc", _LONG)
    except UsageError as e:
        await ctx.error(e.message)
        await ctx.error("Try 'patch --help' for more information.")
        return 2
    strip: int | None = None
    reverse = forward_only = dry_run = silent = batch = force = remove_empty = backup = False
    backup_if_mismatch = True
    input_file = output_file = reject_file = directory = None
    for o, v in opts:
        if o == "p":
            if not isdigits(v):
                await ctx.error(f"**** strip count {v} is not a number")
                return 2
            strip = int(v)
        elif o == "R":
            reverse = True
        elif o == "N":
            forward_only = True
        elif o == "i":
            input_file = v
        elif o == "o":
            output_file = v
        elif o == "r":
            reject_file = v
        elif o == "E":
            remove_empty = True
        elif o == "b":
            backup = True
        elif o == "no-backup-if-mismatch":
            backup_if_mismatch = False
        elif o == "dry-run":
            dry_run = True
        elif o == "s":
            silent = True
        elif o == "t":
            batch = True
        elif o == "f":
            force = True
        elif o == "d":
            directory = v
    if len(operands) > 2:
        await ctx.error(f"**** extra operand '{operands[2]}'")
        return 2
    target_override = operands[0] if operands else None
    if len(operands) == 2:
        input_file = operands[1]
    cwd = ctx.cwd
    if directory is not None:
        cwd = normpath(directory, ctx.cwd)
        if not ctx.fs.is_dir(cwd):
            await ctx.error(f"**** Can't change to directory {directory} : No such file or directory")
            return 2
    try:
        data = ctx.fs.read_bytes(input_file, cwd=ctx.cwd) if input_file not in (None, "-") \
            else await ctx.stdin.read()
    except FSError as e:
        await ctx.error(f"**** Can't open patch file {input_file} : {e.strerror}")
        return 2
    _hold_lines(data)
    try:
        patches = parse_patch(data)
        if not any(p.hunks for p in patches) and target_override is not None:
            normal = parse_normal_diff(data)
            if normal is not None:
                patches = [normal]
    except PatchSyntaxError as e:
        await ctx.error(f"**** {e}")
        return 2
    if not patches or not any(p.hunks for p in patches):
        if data.strip():
            await ctx.error("**** Only garbage was found in the patch input.")
            return 2
        return 0

    async def say(text: str) -> None:
        if not silent:
            await ctx.out(text)

    status = 0
    outputs: dict[str, bytes] = {}
    for fp in patches:
        await ctx.checkpoint()
        hunks = [h.reversed() for h in fp.hunks] if reverse else list(fp.hunks)
        old_name, new_name = (fp.new_name, fp.old_name) if reverse else (fp.old_name, fp.new_name)
        old_epoch, new_epoch = (fp.new_epoch, fp.old_epoch) if reverse else (fp.old_epoch, fp.new_epoch)
        creating = old_name == "/dev/null" or (old_epoch and all(h.old_count == 0 for h in hunks)) \
            or (fp.git_new and not reverse) or (fp.git_deleted and reverse)
        deleting = new_name == "/dev/null" or (new_epoch and all(h.new_count == 0 for h in hunks)) \
            or (fp.git_deleted and not reverse) or (fp.git_new and reverse)
        if target_override is not None:
            target = target_override
        else:
            target = _choose_target(ctx, cwd, old_name, new_name, strip, creating)
        if target is None and deleting:
            shown = _strip(new_name if new_name != "/dev/null" else old_name, strip)
            await say(f"The next patch would delete the file {shown},\n"
                      "which does not exist!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n")
            n = len(hunks)
            await say(f"{n} out of {n} hunk{'s' if n != 1 else ''} ignored\n")
            status = max(status, 1)
            continue
        if target is None:
            await say(f"can't find file to patch at input line {fp.header_line}\n"
                      "Perhaps you used the wrong -p or --strip option?\n"
                      "The text leading up to this was:\n--------------------------\n")
            await say("".join("|" + ln.decode("utf-8", "surrogateescape").rstrip("\n") + "\n"
                              for ln in fp.leading))
            await say("--------------------------\n")
            if batch or force:
                await say("No file to patch.  Skipping patch.\n")
            else:
                await say("File to patch: \nSkip this patch? [y] \nSkipping patch.\n")
            n = len(hunks)
            await say(f"{n} out of {n} hunk{'s' if n != 1 else ''} ignored\n")
            status = 1
            continue
        path = normpath(target, cwd)
        exists = ctx.fs.exists(path)
        if exists and ctx.fs.is_dir(path):
            await ctx.error(f"**** {target}: Is a directory")
            status = 2
            continue
        if path in outputs:
            original = outputs[path]
        elif exists:
            original = ctx.fs.read_bytes(path)
            _hold_lines(original)
        else:
            original = b""
        if output_file is not None:
            await say(f"{'checking' if dry_run else 'patching'} file {output_file} (read from {target})\n")
        else:
            await say(f"{'checking' if dry_run else 'patching'} file {target}\n")
        lines = original.splitlines(keepends=True)
        result, failed, inexact, messages, reversed_detected = _apply_hunks(
            lines, hunks, forward_only, batch, force, creating and exists)
        if reversed_detected == "assume":
            hunks = [h.reversed() for h in hunks]
            creating, deleting = deleting, creating
            result, failed, inexact, messages, _ = _apply_hunks(lines, hunks, True, False, True)
            messages.insert(0, "Reversed (or previously applied) patch detected!  Assuming -R.\n")
        elif reversed_detected == "skip":
            prompt = ("Reversed (or previously applied) patch detected!  Skipping patch.\n"
                      if forward_only else
                      "Reversed (or previously applied) patch detected!  Assume -R? [n] \n"
                      "Apply anyway? [n] \nSkipping patch.\n")
            await say(prompt)
            n = len(hunks)
            rej = reject_file or (target + ".rej")
            await say(f"{n} out of {n} hunk{'s' if n != 1 else ''} ignored -- saving rejects to file {rej}\n")
            if not dry_run:
                _write_rejects(ctx, cwd, rej, fp, hunks)
            status = max(status, 1)
            continue
        for msg in messages:
            await say(msg)
        new_data = b"".join(result)
        if not dry_run:
            try:
                if (failed or inexact) and backup_if_mismatch or backup:
                    if exists and not ctx.fs.exists(path + ".orig"):
                        ctx.fs.write_bytes(path + ".orig", original)
                if output_file is not None:
                    dest = normpath(output_file, ctx.cwd)
                    ctx.fs.write_bytes(dest, new_data, append=dest in outputs)
                    outputs[dest] = new_data
                elif deleting and not new_data and not failed:
                    if exists:
                        ctx.fs.unlink(path)
                        _remove_empty_parents(ctx, path, cwd)
                    outputs.pop(path, None)
                elif remove_empty and not new_data and not failed:
                    if exists:
                        ctx.fs.unlink(path)
                else:
                    parent = path.rsplit("/", 1)[0] or "/"
                    if not ctx.fs.exists(parent):
                        ctx.fs.mkdir(parent, parents=True)
                    ctx.fs.write_bytes(path, new_data)
                    outputs[path] = new_data
            except FSError as e:
                await ctx.error(f"**** Can't create file {e.filename or target} : {e.strerror}")
                return 2
        if deleting and new_data and not failed:
            await say(f"Not deleting file {target} as content differs from patch\n")
            status = max(status, 1)
        if failed:
            n = len(hunks)
            rej = reject_file or (target + ".rej")
            await say(f"{len(failed)} out of {n} hunk{'s' if n != 1 else ''} FAILED -- "
                      f"saving rejects to file {rej}\n")
            if not dry_run:
                _write_rejects(ctx, cwd, rej, fp, [hunks[k] for k in failed])
            status = max(status, 1)
    return status


def _remove_empty_parents(ctx, path: str, stop: str) -> None:
    """GNU patch removes directories that deleting a file left empty (up to the cwd)."""
    parent = path.rsplit("/", 1)[0]
    while parent and parent != stop and parent.startswith(stop.rstrip("/") + "/"):
        try:
            if ctx.fs.listdir(parent):
                return
            ctx.fs.rmdir(parent)
        except FSError:
            return
        parent = parent.rsplit("/", 1)[0]


def _choose_target(ctx, cwd: str, old_name: str, new_name: str, strip: int | None,
                   creating: bool) -> str | None:
    candidates = []
    for name in (old_name, new_name):
        if name and name != "/dev/null":
            stripped = _strip(name, strip)
            if stripped and stripped not in candidates:
                candidates.append(stripped)
    for name in candidates:
        if ctx.fs.exists(normpath(name, cwd)):
            return name
    if creating and candidates:
        # like GNU: fewest components, then shortest base name, then shortest name
        return min(candidates, key=lambda n: (n.count("/"), len(n.rsplit("/", 1)[-1]), len(n)))
    return None


def _apply_hunks(lines, hunks, forward_only, batch, force, creating=False):
    """-> (result lines, failed hunk indexes, inexact?, messages, reversed verdict)."""
    result: list[bytes] = []
    cursor = 0
    offset = 0
    failed: list[int] = []
    messages: list[str] = []
    inexact = False
    for k, hunk in enumerate(hunks):
        expected = (hunk.old_start - 1 if hunk.old_count else hunk.old_start) + offset
        expected = max(expected, 0)
        pos = _find(lines, hunk.old_lines, expected, cursor)
        if pos is None:
            if k == 0 and not force:
                rev = hunk.reversed()
                if _find(lines, rev.old_lines, expected, cursor) is not None and rev.old_lines:
                    return [], [], False, [], ("assume" if batch else "skip")
            failed.append(k)
            messages.append(
                f"Hunk #{k + 1} FAILED at {hunk.old_start + offset if hunk.old_count else hunk.old_start}.\n"
            )
            continue
        if k == 0 and not force and creating and hunk.old_count == 0 and lines:
            # creating a file that already has content: applied already?
            rev = hunk.reversed()
            if _find(lines, rev.old_lines, 0, 0) is not None:
                return [], [], False, [], ("assume" if batch else "skip")
        result.extend(lines[cursor:pos])
        result.extend(hunk.new_lines)
        cursor = pos + len(hunk.old_lines)
        line_offset = pos - (hunk.old_start - 1 if hunk.old_count else hunk.old_start)
        if line_offset:
            inexact = True
            # GNU reports where the hunk landed in the new file (after the line, for a deletion)
            landed = hunk.new_start + (1 if hunk.new_count == 0 else 0) + line_offset
            messages.append(f"Hunk #{k + 1} succeeded at {landed} "
                            f"(offset {line_offset} line{'s' if line_offset != 1 else ''}).\n")
        offset = line_offset
    result.extend(lines[cursor:])
    # a line that lost its newline but no longer ends the file gets it back
    for n in range(len(result) - 1):
        if not result[n].endswith(b"\n"):
            result[n] += b"\n"
    return result, failed, inexact, messages, None


def _write_rejects(ctx, cwd, rej: str, fp: FilePatch, hunks: list[Hunk]) -> None:
    data = b"".join(fp.header) + b"".join(b"".join(h.text) for h in hunks)
    try:
        ctx.fs.write_bytes(normpath(rej, cwd), data)
    except FSError:
        pass
