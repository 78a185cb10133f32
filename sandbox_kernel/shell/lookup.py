"""Finding a command on PATH as bash does, and bash's table of remembered locations (``hash``).

A hit is spelled the way bash prints it: the PATH entry as written, a slash, the name
(``_tmp/pwd`` for a relative entry, ``./pwd`` for an empty one). The registered commands are
files in /usr/bin (``COMMAND_STUB``), so they are found at their PATH position like any other.
"""
from __future__ import annotations

#: what ``command -p`` searches (glibc's confstr(_CS_PATH))
STANDARD_PATH = "/bin:/usr/bin"

NOT_FOUND, PLAIN_FILE, EXECUTABLE = 0, 1, 2


def file_status(fs, cwd: str, path: str) -> int:
    """NOT_FOUND (missing, or not a regular file), PLAIN_FILE or EXECUTABLE."""
    regular, runnable = fs.file_access(path, cwd)
    if not regular:
        return NOT_FOUND
    return EXECUTABLE if runnable else PLAIN_FILE


#: how much of a file bash looks at to call it binary (its ``sample`` buffer)
BINARY_SAMPLE = 80


def is_binary_script(data: bytes) -> bool:
    """bash's check_binary_file on a file's first 80 bytes: an ELF header, or a NUL byte in
    the first line (the first two after a ``#!`` line). Such a file is refused as a script
    ("cannot execute binary file", status 126)."""
    sample = data[:BINARY_SAMPLE]
    if sample.startswith(b"\x7fELF"):
        return True
    lines = 2 if sample.startswith(b"#!") else 1
    for c in sample:
        if c == 10:
            lines -= 1
            if not lines:
                return False
        elif c == 0:
            return True
    return False


def _join(directory: str, name: str) -> str:
    directory = directory or "."
    return directory + name if directory.endswith("/") else f"{directory}/{name}"


def search_path(fs, cwd: str, name: str, path_var: str, every: bool = False) -> list[str]:
    """NAME's executables along PATH_VAR in order: all of them with EVERY, else the first one
    (or, when there is none, the first plain file: running it then fails with status 126)."""
    hits: list[str] = []
    plain = None
    for directory in path_var.split(":"):
        candidate = _join(directory, name)
        status = file_status(fs, cwd, candidate)
        if status == EXECUTABLE:
            hits.append(candidate)
            if not every:
                return hits
        elif status == PLAIN_FILE and plain is None:
            plain = candidate
    if not hits and plain is not None and not every:
        hits.append(plain)
    return hits


def _bucket(name: str) -> int:
    h = 2166136261
    for byte in name.encode("utf-8", "surrogateescape"):
        h = (h * 16777619) & 0xFFFFFFFF
        h ^= byte
    return h & 255


class CommandHash:
    """bash's hash table: NAME -> [path, hits]. It belongs to one PATH value and is
    forgotten when PATH changes (as an assignment to PATH empties bash's table).

    Beside it, ``quiet``: every PATH search's result, by (PATH, name), shared by the tables
    copied from this one (forks). bash searches again where its table has no entry (a forked
    child, a pipeline stage, a command substitution); here such a search is answered from
    ``quiet`` when the file found is still an executable there. It is never listed or counted."""

    __slots__ = ("path_var", "entries", "quiet")

    def __init__(self) -> None:
        self.path_var: str | None = None
        self.entries: dict[str, list] = {}
        self.quiet: dict[tuple[str, str], str] = {}

    def copy(self) -> "CommandHash":
        other = CommandHash()
        other.path_var = self.path_var
        other.entries = {k: list(v) for k, v in self.entries.items()}
        other.quiet = self.quiet
        return other

    def sync(self, path_var: str) -> None:
        if path_var != self.path_var:
            self.entries.clear()
            self.path_var = path_var

    def forget(self) -> None:
        """``hash -r``."""
        self.entries.clear()
        self.quiet.clear()

    def remembered(self, name: str, path_var: str) -> str | None:
        """The remembered location of NAME (counted as a use), if any."""
        self.sync(path_var)
        entry = self.entries.get(name)
        if entry is None:
            return None
        entry[1] += 1
        return entry[0]

    def count_use(self, name: str, path: str) -> None:
        """A use of NAME, found at PATH by a lookup that only read the table: counted as
        ``resolve`` would have (a hit of its entry, else a new entry)."""
        entry = self.entries.get(name)
        if entry is not None:
            entry[1] += 1
        else:
            self.remember(name, path, 1)

    def remember(self, name: str, path: str, hits: int = 0) -> None:
        self.entries.pop(name, None)
        self.entries[name] = [path, hits]

    def listing(self) -> list[tuple[str, str, int]]:
        """(name, path, hits) in the order bash lists its table: by bucket of its 256
        (FNV-1 hash of the name), the newest first within a bucket."""
        items = list(self.entries.items())
        order = sorted(range(len(items)), key=lambda k: (_bucket(items[k][0]), -k))
        return [(items[k][0], items[k][1][0], items[k][1][1]) for k in order]

    def resolve(self, fs, cwd: str, name: str, path_var: str, remember: bool = True,
                check: bool = True) -> str | None:
        """Where running NAME goes: the remembered location, or the PATH search (remembered,
        and the use counted, only with ``remember``: a forked child's table is its own;
        without it the table is only read). A search's earlier result is checked to be an
        executable still, unless ``check`` is off for a lookup that only reads: the caller
        runs the file, which checks it, and asks again when it is gone (Shell.run_external)."""
        if remember:
            path = self.remembered(name, path_var)
            if path is not None:
                return path
        elif path_var == self.path_var:
            entry = self.entries.get(name)
            if entry is not None:
                return entry[0]
        key = (path_var, name)
        path = self.quiet.get(key)
        if path is not None and (check or remember) and file_status(fs, cwd, path) != EXECUTABLE:
            path = None  # gone since: search again
        if path is None:
            hits = search_path(fs, cwd, name, path_var)
            if not hits:
                return None
            path = hits[0]
            if path.startswith("/"):  # (a relative hit depends on the cwd)
                if len(self.quiet) >= 1024:
                    self.quiet.clear()
                self.quiet[key] = path
        if remember:
            self.remember(name, path, 1)
        return path


def find_sourced(fs, cwd: str, name: str, path_var: str) -> str:
    """The file ``source NAME`` reads: a name with a slash as it is, else the first regular
    file along PATH, else NAME in the current directory."""
    if "/" not in name:
        for directory in path_var.split(":"):
            candidate = _join(directory, name)
            if file_status(fs, cwd, candidate) != NOT_FOUND:
                return candidate
    return name
