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
    forgotten when PATH changes (as an assignment to PATH empties bash's table)."""

    __slots__ = ("path_var", "entries", "quiet")

    def __init__(self) -> None:
        self.path_var: str | None = None
        self.entries: dict[str, list] = {}
        #: what lookups that bash makes in a forked child found (pipeline stages running in
        #: the shell itself): kept to spare the next search, never listed or counted
        self.quiet: dict[str, str] = {}

    def copy(self) -> "CommandHash":
        other = CommandHash()
        other.path_var = self.path_var
        other.entries = {k: list(v) for k, v in self.entries.items()}
        other.quiet = dict(self.quiet)
        return other

    def sync(self, path_var: str) -> None:
        if path_var != self.path_var:
            self.forget()
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

    def remember(self, name: str, path: str, hits: int = 0) -> None:
        self.entries.pop(name, None)
        self.entries[name] = [path, hits]

    def listing(self) -> list[tuple[str, str, int]]:
        """(name, path, hits) in the order bash lists its table: by bucket of its 256
        (FNV-1 hash of the name), the newest first within a bucket."""
        items = list(self.entries.items())
        order = sorted(range(len(items)), key=lambda k: (_bucket(items[k][0]), -k))
        return [(items[k][0], items[k][1][0], items[k][1][1]) for k in order]

    def resolve(self, fs, cwd: str, name: str, path_var: str, remember: bool = True) -> str | None:
        """Where running NAME goes: the remembered location, or the PATH search (remembered,
        and the use counted, only with ``remember``: a forked child's table is its own)."""
        if remember:
            path = self.remembered(name, path_var)
        else:
            self.sync(path_var)
            entry = self.entries.get(name)
            path = entry[0] if entry is not None else self.quiet.get(name)
            if path is not None and entry is None and file_status(fs, cwd, path) != EXECUTABLE:
                path = None  # gone since: search again
        if path is not None:
            return path
        hits = search_path(fs, cwd, name, path_var)
        if not hits:
            return None
        if remember:
            self.remember(name, hits[0], 1)
        elif hits[0].startswith("/") and len(self.quiet) < 1024:  # (a relative hit depends on the cwd)
            self.quiet[name] = hits[0]
        return hits[0]


def find_sourced(fs, cwd: str, name: str, path_var: str) -> str:
    """The file ``source NAME`` reads: a name with a slash as it is, else the first regular
    file along PATH, else NAME in the current directory."""
    if "/" not in name:
        for directory in path_var.split(":"):
            candidate = _join(directory, name)
            if file_status(fs, cwd, candidate) != NOT_FOUND:
                return candidate
    return name
