"""Limits.raise_hint: the text every limit message ends with, in the kernel's and the CLI's
words, held to the ceilings."""
import pytest

from sandbox_kernel.limits import DEFAULT_CEILINGS, CliLimits, Limits, check_ceiling


def test_the_hint_doubles_the_limit_as_percent_limits_reads_it():
    limits = Limits(wall_time=600.0, vfs_bytes=256 << 20, commands=5000)
    assert limits.raise_hint("wall_time") == "raise it with %limits wall_time=1200"
    assert limits.raise_hint("vfs_bytes") == "raise it with %limits vfs_bytes=512M"
    assert limits.raise_hint("commands") == "raise it with %limits commands=10000"
    assert Limits(wall_time=0.4).raise_hint("wall_time") == "raise it with %limits wall_time=0.8"
    assert Limits(wall_time=1e6).raise_hint("wall_time") == "raise it with %limits wall_time=2000000"
    assert (limits.raise_hint("stdout_bytes", "stderr_bytes")
            == "raise them with %limits stdout_bytes=2M stderr_bytes=2M")


def test_the_hint_stays_within_the_ceiling_and_says_when_there_is_no_room():
    ceilings = DEFAULT_CEILINGS.replace(wall_time=900.0)
    assert Limits(wall_time=600.0).raise_hint("wall_time", ceilings=ceilings) == "raise it with %limits wall_time=900"
    # the default function depth is its ceiling (the C stack): no %limits raises it
    assert Limits().raise_hint("function_depth", ceilings=DEFAULT_CEILINGS) == (
        "that is this kernel's ceiling, which the admin sets: python -m sandbox_kernel install "
        "--max-limit function_depth=...")
    assert CliLimits().raise_hint("function_depth", ceilings=DEFAULT_CEILINGS) == "the CLI allows no more"


def test_the_cli_names_its_option():
    limits = CliLimits()
    assert limits.raise_hint("wall_time") == "raise it with --limit wall_time=60"
    assert (limits.raise_hint("stdout_bytes", "stderr_bytes")
            == "raise them with --limit stdout_bytes=2M --limit stderr_bytes=2M")
    assert type(limits.replace(wall_time=5.0)) is CliLimits  # %limits-style copies keep the words
    limits.wall_time = 1e6
    with pytest.raises(ValueError, match=r"wall_time=1e\+06 s is above the most the CLI allows \(86400 s\)"):
        check_ceiling(limits, DEFAULT_CEILINGS, "wall_time")
