"""Timestamps from sandbox code are untrusted (red team, degraded findings): a JS
``fs.utimesSync('h', 1e12, 1e12)`` made ls -l, stat and date -r fail with 'internal error:
ValueError: year 33658', -1e300 gave OverflowError in ls, stat, find, date and tar. The VFS
clamps every time it is given to what the tools can print (as Linux clamps to a filesystem's
range), NaN is EINVAL, and the date formatting holds any time in any zone."""
from __future__ import annotations

import math

import pytest

from sandbox_kernel.cli import run_script
from sandbox_kernel.sandbox import Sandbox
from sandbox_kernel.vfs import FSError

TOOLS = ("ls -l h; ls -l --full-time h; stat h; stat -c '%y %Y' h; date -r h; find h -printf '%t %TY\\n'; "
         "TZ=Pacific/Kiritimati ls -l h; TZ=Etc/GMT+12 date -r h; TZ=Pacific/Kiritimati stat -c %y h; "
         "tar cf t.tar h && tar tvf t.tar; diff -u h /dev/null | head -1; zip -q z.zip h && unzip -l z.zip; "
         "echo done")


@pytest.mark.parametrize("when", ["1e12", "-1e300", "1e300", "-1e12", "253402300799.5"])
def test_tools_survive_any_time_set_from_js(when):
    out, err, status = run_script(f"js -e \"const fs = require('fs'); fs.writeFileSync('h', 'x'); "
                                  f"fs.utimesSync('h', {when}, {when}); const [st, e] = os.stat('h'); "
                                  f"console.log(e)\"; " + TOOLS)
    assert b"internal error" not in err and b"Error" not in err and b"WASI" not in err, err
    assert out.startswith(b"0\n") and out.endswith(b"done\n") and status == 0, (out, err)


def test_the_vfs_clamps_times_and_refuses_nan():
    from sandbox_kernel.vfs.fs import MAX_TIME, MIN_TIME
    fs = Sandbox().fs
    fs.write_bytes("/workspace/h", b"x")
    fs.utime("/workspace/h", 1e300, -math.inf)
    s = fs.stat("/workspace/h")
    assert (s.st_mtime, s.st_atime) == (MAX_TIME, MIN_TIME)
    with pytest.raises(FSError) as e:
        fs.utime("/workspace/h", math.nan)
    assert e.value.code == "EINVAL"
    out, err, status = run_script("js -e \"const fs = require('fs'); fs.writeFileSync('h', 'x'); "
                                  "try { fs.utimesSync('h', NaN, NaN) } catch (e) { console.log(e.code) }\"")
    assert out == b"EINVAL\n", err
