"""The C stack the interpreters recurse on.

Python's recursion limit guards Python frames, not the C stack under them: chains of
generators (jq's ``[f]``) or of awaits take several hundred bytes of C stack per frame, and
past the thread's stack the process dies with SIGSEGV. So the main thread's stack is raised
to 64 MiB where the hard limit allows (Linux grows the main stack on demand up to the soft
limit, no re-exec needed), and the recursion limit is derived from the stack actually there.
"""
from __future__ import annotations

import resource

WANTED_STACK = 64 * 1024 * 1024
#: C stack one Python frame may take (generator chains measured at ~500 B; a wide margin)
BYTES_PER_FRAME = 1536
MAX_RECURSION = 20000


def ensure_stack() -> int:
    """Raise the main thread's soft stack limit towards WANTED_STACK; returns the usable size
    in bytes (the soft limit afterwards)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
    if soft != resource.RLIM_INFINITY and soft < WANTED_STACK:
        target = WANTED_STACK if hard == resource.RLIM_INFINITY else min(WANTED_STACK, hard)
        if target > soft:
            try:
                resource.setrlimit(resource.RLIMIT_STACK, (target, hard))
                soft = target
            except (ValueError, OSError):
                pass
    return WANTED_STACK if soft == resource.RLIM_INFINITY else soft


def recursion_limit() -> int:
    """A Python recursion limit the main thread's stack can hold."""
    return max(1000, min(MAX_RECURSION, ensure_stack() // BYTES_PER_FRAME))
