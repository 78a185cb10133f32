"""Shell variables share one memory limit (red team, item 11): 300 copies of a 60 MB string in
an array took 5.9 GB and stayed after the cell. Now the cell stops at shell_memory_bytes with
a clear error, host memory stays bounded, and the session goes on (unset frees)."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = textwrap.dedent("""
    import json, resource, sys
    # a regression fails here with a MemoryError instead of taking the host's memory
    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))
    from tests.support.rss import peak_rss_bytes
    from tests.support.session import Session
    s = Session(shell_memory_bytes=256 * 1024 * 1024, wall_time=120)
    runs = []
    for code in (
        "s=$(head -c 60000000 /dev/zero | tr '\\\\0' a); for i in {1..300}; do a[i]=\\"$s$i\\"; done; echo done",
        "echo ${#a[@]}; unset a; for i in 1 2 3; do a[i]=\\"$s$i\\"; done; echo ok ${#a[@]}",
        "for i in {1..300}; do declare v$i=\\"$s$i\\"; done",
    ):
        r, out, err, _ = s.run(code)
        runs.append([r.status, out.decode(), err.decode()])
    s.close()
    print(json.dumps({"runs": runs, "peak_mb": peak_rss_bytes() // 2**20}))
""")


def test_copies_of_a_large_string_stop_at_the_shell_memory_limit():
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    (status1, out1, err1), (status2, out2, err2), (status3, out3, err3) = result["runs"]
    assert status1 == 1 and "done" not in out1
    assert err1 == ("bash: a: memory limit exceeded (256M; limit shell_memory_bytes; "
                    "raise it with %limits shell_memory_bytes=512M)\n")
    # three 60 MB elements fit next to $s; unset gave their memory back
    assert status2 == 0 and out2 == "3\nok 3\n", err2
    assert status3 == 1 and "memory limit exceeded" in err3 and "limit shell_memory_bytes" in err3
    # 5.9 GB before the limit existed; ~430 MB now (the probe's own peak: tests/support/rss.py
    # says why not ru_maxrss, which grew with the suite's earlier tests)
    assert result["peak_mb"] < 700, result["peak_mb"]


#: storage that is not a variable: each run nests or collects copies of a 60 MB string
TRANSIENT = textwrap.dedent("""
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024**3, 3 * 1024**3))
    from tests.support.rss import peak_rss_bytes
    from tests.support.session import Session
    s = Session(shell_memory_bytes=256 * 1024 * 1024, wall_time=120)
    runs = []
    for code in (
        "s=$(head -c 60000000 /dev/zero | tr '\\\\0' a); echo made",
        # each level's output waits in its command substitution while the next one runs
        "f() { (( ++n > 40 )) && return; echo \\"$(printf %s \\"$s\\"; f)\\"; }; f | wc -c",
        # each level's here-document (here-string) is its command's input until it ends
        "f() { (( ++n > 40 )) && return; { f; } <<EOF\\n$s\\nEOF\\n}; f",
        "f() { (( ++n > 40 )) && return; { f; } <<< \\"$s\\"; }; f",
        # mapfile's lines are counted as they are read, a read line stops at the string limit
        "for i in {1..40}; do printf '%s\\\\n' \\"$s\\"; done | mapfile -t lines",
        "for i in {1..40}; do printf %s \\"$s\\"; done | read -r line",
        # $1 ... are stored like an array
        "for i in {1..300}; do set -- \\"$@\\" \\"$s$i\\"; done",
        # what they held was given back: the session goes on with room for more
        "set --; x=$(printf %s \\"$s\\"); echo ${#x}; unset x; y=$(cat <<< \\"$s\\"); echo ${#y}",
    ):
        r, out, err, _ = s.run(code)
        runs.append([r.status, out.decode(), err.decode()])
    s.close()
    print(json.dumps({"runs": runs, "peak_mb": peak_rss_bytes() // 2**20}))
""")


def test_here_documents_substitutions_and_read_lines_count_against_the_limit():
    proc = subprocess.run([sys.executable, "-c", TRANSIENT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    made, cmdsub, heredoc, herestring, mapfile, read, positional, after = result["runs"]
    assert made[:2] == [0, "made\n"], made
    hint = "(256M; limit shell_memory_bytes; raise it with %limits shell_memory_bytes=512M)\n"
    for (status, out, err), name in ((cmdsub, "command substitution"), (heredoc, "here-document"),
                                     (herestring, "here-string"), (mapfile, "lines"), (positional, "set")):
        assert status == 1 and err == f"bash: {name}: memory limit exceeded {hint}", (name, status, err)
    assert read[0] == 1 and "limit string_bytes" in read[2], read
    assert after == [0, "60000000\n60000000\n", ""], after
    assert result["peak_mb"] < 800, result["peak_mb"]
