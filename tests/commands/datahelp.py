"""Running data/system commands directly through the registry, for unit tests: bytes in and
out, and an environment without PWD (see helpers.run_direct, which does the running)."""
from __future__ import annotations

from .helpers import new_fs, run_direct

__all__ = ["DEFAULT_ENV", "new_fs", "random_edits", "run_cmd"]

DEFAULT_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/home/user", "USER": "user", "TZ": "UTC",
               "LC_ALL": "C"}


def run_cmd(argv, stdin=b"", fs=None, cwd="/workspace", env=None):
    """Run one command; returns (stdout bytes, stderr bytes, status)."""
    return run_direct(argv, stdin, fs if fs is not None else new_fs(), cwd,
                      dict(DEFAULT_ENV if env is None else env))


def random_edits(rng, lines: list, pool: list, edits: int) -> list:
    """A copy of ``lines`` after ``edits`` random deletions, insertions and replacements
    (new lines drawn from ``pool``), for the diff and patch round trips."""
    out = list(lines)
    for _ in range(edits):
        r = rng.random()
        if r < 0.3 and out:
            del out[rng.randrange(len(out))]
        elif r < 0.6:
            out.insert(rng.randint(0, len(out)), rng.choice(pool))
        elif out:
            out[rng.randrange(len(out))] = rng.choice(pool)
    return out
