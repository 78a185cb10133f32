"""EditorHosts, the kernel's side of `nano FILE`: which host gets an edit, what ends it; and the
command's checks before it asks, over an in-process sandbox."""
import asyncio

import pytest

from sandbox_kernel.engine import CancelToken, Streams
from sandbox_kernel.commands.editor import MAX_FILES
from sandbox_kernel.kernel.comms.editors import EditorHosts
from sandbox_kernel.sandbox import Sandbox


class Collect:
    def __init__(self):
        self.buf = bytearray()

    def write(self, data):
        self.buf += data


async def first(events):
    while not events:
        await asyncio.sleep(0.01)
    return events.pop(0)


def test_an_edit_goes_to_the_newest_host_that_answers():
    async def main():
        hosts = EditorHosts(open_timeout=0.2)
        stale, live = [], []
        hosts.attach(live.append)
        hosts.attach(stale.append)  # newest, but never answers (a closed browser tab)
        edit = asyncio.ensure_future(hosts.edit("/workspace/a.txt"))
        asked = await first(stale)
        event = await first(live)
        assert (asked["path"], event["path"]) == ("/workspace/a.txt", "/workspace/a.txt")
        assert not hosts.report(asked["edit"], "opened")  # too late: that edit was given up
        assert hosts.report(event["edit"], "opened") and not edit.done()
        hosts.report(event["edit"], "closed")
        assert await edit is None and hosts.waiting == {}
    asyncio.run(main())


def test_no_answer_and_a_closed_connection_are_reported():
    async def main():
        hosts = EditorHosts(open_timeout=0.05)
        silent = []
        hosts.attach(silent.append)
        assert "did not open the file within 0.05 s" in await hosts.edit("/x")
        events = []
        hosts.attach(events.append)
        edit = asyncio.ensure_future(hosts.edit("/y"))
        hosts.report((await first(events))["edit"], "opened")
        hosts.detach(events.append)
        assert await edit == "the Sandbox files panel closed its connection to the kernel"
    asyncio.run(main())


@pytest.mark.parametrize("script, err", [
    ("mkdir -p d; nano d", "nano: d is a directory\n"),
    ("vi missing/x.txt", "vi: directory /workspace/missing does not exist\n"),
    ("edit", "edit: give the FILE to edit (it opens in a JupyterLab editor tab)\n"),
])
def test_the_command_checks_its_files_before_asking(script, err):
    async def main():
        sandbox = Sandbox()
        sandbox.editors = EditorHosts()
        asked = []
        sandbox.editors.attach(asked.append)
        out, errors = Collect(), Collect()
        result = await sandbox.run("sh", script, Streams(out, errors, CancelToken()))
        return result.status, errors.buf.decode(), asked
    assert asyncio.run(main()) == (1, err, [])


def test_several_files_wait_for_every_editor():
    async def main():
        sandbox = Sandbox()
        sandbox.editors = EditorHosts()
        asked = []
        sandbox.editors.attach(asked.append)
        out, errors = Collect(), Collect()
        run = asyncio.ensure_future(sandbox.run("sh", "nano -w a +3 b; echo $?", Streams(out, errors, CancelToken())))
        one, two = await first(asked), await first(asked)
        assert (one["path"], two["path"]) == ("/workspace/a", "/workspace/b")
        for event in (one, two):
            sandbox.editors.report(event["edit"], "opened")
        sandbox.editors.report(two["edit"], "closed")
        await asyncio.sleep(0.05)
        assert not run.done()
        sandbox.editors.report(one["edit"], "closed")
        assert (await run).status == 0 and out.buf == b"0\n"
        # the user is told what the command waits for
        assert errors.buf.decode() == "".join(
            f"nano: {name} is open in a JupyterLab editor tab; waiting until the tab is closed (save with "
            "Ctrl+S, then close the tab)\n" for name in "ab")
    asyncio.run(main())


def test_one_command_opens_at_most_max_files_tabs():
    """`nano $(seq -f f%g 1 500)` opened 500 editor tabs (issue #28): refused before any opens."""
    async def main():
        sandbox = Sandbox()
        sandbox.editors = EditorHosts()
        asked = []
        sandbox.editors.attach(asked.append)
        out, errors = Collect(), Collect()
        result = await sandbox.run("sh", "nano $(seq -f f%g 1 500)", Streams(out, errors, CancelToken()))
        return result.status, errors.buf.decode(), asked
    assert asyncio.run(main()) == (
        1, f"nano: 500 files: one command opens at most {MAX_FILES} editor tabs; give fewer files\n", [])


def test_files_open_at_once_are_capped():
    async def main():
        hosts = EditorHosts(max_open=2)
        asked = []
        hosts.attach(asked.append)
        edits = [asyncio.ensure_future(hosts.edit(f"/f{i}")) for i in range(2)]
        await first(asked)
        await first(asked)
        assert await hosts.edit("/third") == ("2 files are open in editors already, the most at once; "
                                              "close some editor tabs first")
        assert asked == [] and len(hosts.waiting) == 2
        for edit_id in list(hosts.waiting):
            hosts.report(edit_id, "closed")
        assert await asyncio.gather(*edits) == [None, None] and hosts.waiting == {}
    asyncio.run(main())
