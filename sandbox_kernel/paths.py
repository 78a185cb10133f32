"""Path strings, without the VFS: the policy checks mount targets before any sandbox exists."""
from __future__ import annotations


def under(path: str, root: str) -> bool:
    """``path`` is ``root`` or lies below it (both absolute and normalised)."""
    return path == root or path.startswith(root.rstrip("/") + "/")
