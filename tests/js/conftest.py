import pytest

from sandbox_kernel.sandbox import Sandbox

from .jshelp import close_sandbox


@pytest.fixture
def sandbox():
    sb = Sandbox()
    yield sb
    close_sandbox(sb)


@pytest.fixture(scope="module")
def shared_sandbox():
    """One sandbox (one JS context) for tests that don't depend on a fresh context."""
    sb = Sandbox()
    yield sb
    close_sandbox(sb)
