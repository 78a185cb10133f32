"""Builtin details the differential corpus cannot pin down (racy in bash, or ours alone)."""
from sandbox_kernel.cli import run_script


def sh(src, stdin=b""):
    out, err, status = run_script(src, stdin=stdin)
    return out.decode(), err.decode(), status


def test_read_t0_reports_waiting_input_without_taking_it():
    out, _, _ = sh("printf 'foo\\n' | { read -t 0; echo \"ready=$? reply=[$REPLY]\"; read x; echo $x; }")
    assert out == "ready=0 reply=[]\nfoo\n"


def test_read_t0_on_an_empty_pipe_is_not_ready():
    out, _, _ = sh("sleep 0.2 | { read -t 0; echo ready=$?; }")
    assert out == "ready=1\n"
