"""The peak resident memory of this process, as a test probe reports it.

Not ``getrusage(RUSAGE_SELF).ru_maxrss``: Linux carries the parent's high-water mark across
fork + execve into it (exec_mmap keeps the old mm's peak), so a probe started from a pytest
process that holds 900 MB reports at least 900 MB whatever it did. ``VmHWM`` is the peak of
this process's own address space."""
from __future__ import annotations


def peak_rss_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM in /proc/self/status")
