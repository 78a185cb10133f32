"""Option parsing with the usage-error exit status of the real tool (coreutils exits 1 on a
bad option, tar 64, hostname 255...), for the data and system commands."""
from __future__ import annotations

from ..options import UsageError, getopt


def getopt_status(args: list[str], short: str, long: dict | None = None, status: int = 1,
                  **kwargs):
    """``options.getopt`` whose UsageError carries ``status``."""
    try:
        return getopt(args, short, long, **kwargs)
    except UsageError as e:
        e.status = status
        raise
