"""fs/path over the VFS (checked through sandbox.fs), qjs:std/qjs:os, ES modules, require."""
import json

from .jshelp import run_js


def ok(sb, code):
    r = run_js(sb, code)
    assert r.status == 0, (code, r.error)
    return r.value


def test_sync_fs_round_trips_with_the_vfs(sandbox):
    fs = sandbox.fs
    ok(sandbox, "fs.writeFileSync('notes.txt', 'héllo\\n')")
    assert fs.read_bytes("/workspace/notes.txt") == "héllo\n".encode()
    ok(sandbox, "fs.appendFileSync('/workspace/notes.txt', 'more\\n')")
    assert fs.read_text("/workspace/notes.txt") == "héllo\nmore\n"
    fs.write_bytes("/workspace/from-shell.bin", bytes([0, 255, 10]))
    assert ok(sandbox, "fs.readFileSync('from-shell.bin')") == "<Buffer 00 ff 0a>"
    assert ok(sandbox, "fs.readFileSync('notes.txt', 'utf8')") == "'héllo\\nmore\\n'"
    assert ok(sandbox, "fs.readFileSync('notes.txt').toString('base64')") == "'aMOpbGxvCm1vcmUK'"
    assert ok(sandbox, "[fs.existsSync('notes.txt'), fs.existsSync('nope')]") == "[ true, false ]"
    ok(sandbox, "fs.mkdirSync('a/b/c', {recursive: true}); fs.mkdirSync('solo')")
    assert fs.is_dir("/workspace/a/b/c") and fs.is_dir("/workspace/solo")
    assert ok(sandbox, "fs.readdirSync('a')") == "[ 'b' ]"
    assert ok(sandbox, "fs.readdirSync('.', {withFileTypes: true}).filter(d => d.isDirectory()).map(d => d.name)") == \
        "[ 'a', 'solo' ]"
    assert ok(sandbox, "const s = fs.statSync('notes.txt'); "
                       "[s.size, s.isFile(), s.isDirectory(), s.mtime instanceof Date]") == \
        "[ 12, true, false, true ]"
    ok(sandbox, "fs.renameSync('notes.txt', 'a/renamed.txt')")
    assert not fs.exists("/workspace/notes.txt") and fs.read_text("/workspace/a/renamed.txt") == "héllo\nmore\n"
    ok(sandbox, "fs.unlinkSync('from-shell.bin')")
    assert not fs.exists("/workspace/from-shell.bin")
    ok(sandbox, "fs.rmSync('a', {recursive: true}); fs.rmSync('missing', {force: true}); fs.rmdirSync('solo')")
    assert not fs.exists("/workspace/a") and not fs.exists("/workspace/solo")
    ok(sandbox, "fs.copyFileSync('/etc/hostname', 'h'); fs.symlinkSync('h', 'link')")
    assert fs.read_bytes("/workspace/h") == fs.read_bytes("/etc/hostname")
    assert ok(sandbox, "[fs.readlinkSync('link'), fs.realpathSync('link'), fs.lstatSync('link').isSymbolicLink()]") == \
        "[ 'h', '/workspace/h', true ]"


def test_fs_errors_look_like_node(sandbox):
    r = run_js(sandbox, "try { fs.readFileSync('nope.txt') } catch (e) { console.log(JSON.stringify([e.code, e.errno, "
                        "e.syscall, e.message])) }")
    assert json.loads(r.out.text) == \
        ["ENOENT", -2, "open", "ENOENT: no such file or directory, open '/workspace/nope.txt'"]
    r = run_js(sandbox, "fs.mkdirSync('/workspace')")
    assert r.error.evalue == "EEXIST: file already exists, mkdir '/workspace'"
    r = run_js(sandbox, "fs.writeFileSync('/etc/passwd', 'x')")
    assert r.error.evalue.startswith("EACCES: permission denied")
    r = run_js(sandbox, "fs.rmSync('/workspace')")
    assert "ERR_FS_EISDIR" in run_js(sandbox, "try { fs.rmSync('/tmp') } catch (e) { e.code }").value


def test_fs_promises_and_callbacks(sandbox):
    ok(sandbox, "await fs.promises.writeFile('p.json', JSON.stringify({a: 1}))")
    assert json.loads(sandbox.fs.read_text("/workspace/p.json")) == {"a": 1}
    assert ok(sandbox, "JSON.parse(await fs.promises.readFile('p.json', 'utf8')).a") == "1"
    ok(sandbox, "await fs.promises.appendFile('p.json', '\\n'); await fs.promises.mkdir('d/e', {recursive: true})")
    assert ok(sandbox, "(await fs.promises.readdir('d')).length + (await fs.promises.stat('p.json')).size") == "9"
    ok(sandbox, "await fs.promises.rename('p.json', 'q.json'); await fs.promises.unlink('q.json'); "
                "await fs.promises.rm('d', {recursive: true})")
    assert not sandbox.fs.exists("/workspace/d") and not sandbox.fs.exists("/workspace/q.json")
    r = run_js(sandbox, "await fs.promises.readFile('gone')")
    assert r.error.evalue.startswith("ENOENT")
    assert ok(sandbox, "await new Promise(res => fs.readFile('/etc/hostname', 'utf8', "
                       "(err, d) => res(err === null && d.length > 0)))") == "true"
    assert ok(sandbox, "const fsp = require('fs/promises'); typeof fsp.readFile") == "'function'"


def test_file_descriptors(sandbox):
    ok(sandbox, "const fd = fs.openSync('fd.txt', 'w'); fs.writeSync(fd, 'abc'); fs.writeSync(fd, 'def'); "
                "fs.closeSync(fd)")
    assert sandbox.fs.read_text("/workspace/fd.txt") == "abcdef"
    assert ok(sandbox, "const fd2 = fs.openSync('fd.txt', 'r'); const b = Buffer.alloc(4); "
                       "const n = fs.readSync(fd2, b, 0, 4, 1); fs.closeSync(fd2); [n, b.toString()]") == \
        "[ 4, 'bcde' ]"


def test_path_module(shared_sandbox):
    sb = shared_sandbox
    assert ok(sb, "path.join('/a/b', '../c', './d.txt')") == "'/a/c/d.txt'"
    assert ok(sb, "[path.basename('/x/y.tar.gz'), path.extname('/x/y.tar.gz'), path.dirname('/x/y/')]") == \
        "[ 'y.tar.gz', '.gz', '/x' ]"
    assert ok(sb, "path.resolve('q')") == "'/workspace/q'"
    assert ok(sb, "path.relative('/a/b/c', '/a/d')") == "'../../d'"
    assert ok(sb, "path.parse('/home/u/f.txt')") == \
        "{ root: '/', dir: '/home/u', base: 'f.txt', ext: '.txt', name: 'f' }"
    assert ok(sb, "path.normalize('a//b/../c/')") == "'a/c/'"


def test_quickjs_std_and_os_see_the_same_vfs(sandbox):
    sandbox.fs.write_text("/workspace/std.txt", "from the shell\n")
    assert ok(sandbox, "std.loadFile('/workspace/std.txt')") == "'from the shell\\n'"
    ok(sandbox, "const f = std.open('/workspace/std-out.txt', 'w'); f.puts('written by std\\n'); f.close()")
    assert sandbox.fs.read_text("/workspace/std-out.txt") == "written by std\n"
    assert ok(sandbox, "os.readdir('/workspace')[0].filter(n => n.startsWith('std')).sort()") == \
        "[ 'std-out.txt', 'std.txt' ]"
    assert ok(sandbox, "const [st, err] = os.stat('/workspace/std.txt'); [st.size, err]") == "[ 15, 0 ]"
    assert ok(sandbox, "const m = await import('qjs:os'); m.remove('/workspace/std.txt')") == "0"
    assert not sandbox.fs.exists("/workspace/std.txt")
    assert ok(sandbox, "std.open('/no/such', 'r')") == "null"


def test_es_module_import_of_vfs_files(sandbox):
    sandbox.fs.write_text("/workspace/lib.mjs", "import { helper } from './dir/helper.mjs';\nimport fs from 'fs';\n"
                          "export const answer = helper() + 1;\nexport default function hi(n) { return `hi ${n}` }\n"
                          "export const hasFs = typeof fs.readFileSync;\n")
    sandbox.fs.mkdir("/workspace/dir", exist_ok=True)
    sandbox.fs.write_text("/workspace/dir/helper.mjs", "export function helper() { return 41 }\n")
    assert ok(sandbox, "import hi, { answer, hasFs } from './lib.mjs'\n[hi('x'), answer, hasFs]") == \
        "[ 'hi x', 42, 'function' ]"
    assert ok(sandbox, "import * as ns from '/workspace/lib.mjs'; Object.keys(ns).sort()") == \
        "[ 'answer', 'default', 'hasFs' ]"
    assert ok(sandbox, "import { readFileSync } from 'node:fs'; import { join } from 'path'; "
                       "typeof readFileSync + join('a', 'b')") == "'functiona/b'"
    assert ok(sandbox, "import fsp from 'node:fs/promises'; import { readFile } from 'fs/promises'; "
                       "fsp.readFile === readFile") == "true"
    sandbox.fs.write_text("/workspace/dir/helper.mjs", "export function helper() { return 99 }\n")
    assert ok(sandbox, "(await import('./dir/helper.mjs')).helper()") == "41"  # modules are cached
    assert ok(sandbox, "(await import('./dir/helper.mjs?fresh')).helper()") == "99"
    sandbox.fs.write_text("/workspace/data.json", '{"rows": [1, 2]}')
    assert ok(sandbox, "import data from './data.json' with { type: 'json' }\ndata.rows.length") == "2"
    r = run_js(sandbox, "import x from './missing.mjs'")
    assert r.status == 1 and "missing.mjs" in r.error.evalue


def test_require_of_vfs_commonjs(sandbox):
    fs = sandbox.fs
    fs.write_text("/workspace/calc.js", "const path = require('path');\nexports.add = (a, b) => a + b;\n"
                                        "exports.dir = __dirname;\n")
    fs.mkdir("/workspace/node_modules/pkg", parents=True)
    fs.write_text("/workspace/node_modules/pkg/package.json", '{"main": "main.js"}')
    fs.write_text("/workspace/node_modules/pkg/main.js", "module.exports = function () "
                                                         "{ return require('./data.json').v }")
    fs.write_text("/workspace/node_modules/pkg/data.json", '{"v": 7}')
    fs.write_text("/workspace/broken.js", "exports.x = (;\n")
    fs.write_text("/workspace/thrower.js", "\nthrow new Error('at load')\n")
    assert ok(sandbox, "const calc = require('./calc'); [calc.add(2, 3), calc.dir]") == "[ 5, '/workspace' ]"
    assert ok(sandbox, "require('pkg')()") == "7"
    assert ok(sandbox, "require('./calc') === require('/workspace/calc.js')") == "true"
    fs.write_text("/workspace/calc.js", "exports.add = (a, b) => a * b;\n")
    assert ok(sandbox, "delete require.cache[require.resolve('./calc')]; require('./calc').add(2, 3)") == "6"
    r = run_js(sandbox, "require('./broken')")
    assert r.error.ename == "SyntaxError"
    r = run_js(sandbox, "require('./thrower')")
    assert r.error.evalue == "at load"
    assert any("/workspace/thrower.js:2" in line for line in r.error.traceback), r.error.traceback
    r = run_js(sandbox, "require('nonexistent-pkg')")
    assert r.error.evalue == "Cannot find module 'nonexistent-pkg'"


def test_buffer_basics(shared_sandbox):
    sb = shared_sandbox
    assert ok(sb, "Buffer.from('héllo').length") == "6"
    assert ok(sb, "Buffer.from('68656c6c6f', 'hex').toString()") == "'hello'"
    assert ok(sb, "Buffer.concat([Buffer.from('a'), Buffer.from('b')]).toString()") == "'ab'"
    assert ok(sb, "Buffer.from('€😀').toString('utf8')") == "'€😀'"
