# jq: modules as jq 1.6 finds and binds them: import/include, data imports, module metadata,
# -L and the default search, "." as the current directory, search metadata relative to the
# importing module, first binding wins, modulemeta, get_search_list, ~/.jq (HOME)
mkdir -p m/b m/c m/lib/jq/e m/syntaxerror m2 home
printf 'module {version:1.7};\ndef a: "a";\n' > m/a.jq
printf 'def a: "b";\ndef b: "c";\n' > m/b/b.jq
cat > m/c/c.jq <<'JQ'
module {whatever:null};
import "a" as foo;
import "d" as d {search:"./"};
import "d" as d2{search:"./"};
import "e" as e {search:"./../lib/jq"};
import "f" as f {search:"./../lib/jq"};
import "data" as $d;
def a: 0;
def c:
  if $d::d[0] != {this:"is a test",that:"is too"} then error("data import is busted")
  elif d2::meh != d::meh then error("import twice doesn't work")
  elif foo::a != "a" then error("foo::a didn't work as expected")
  elif d::meh != "meh" then error("d::meh didn't work as expected")
  elif e::bah != "bah" then error("e::bah didn't work as expected")
  elif f::f != "f is here" then error("f::f didn't work as expected")
  else foo::a + "c" + d::meh + e::bah end;
JQ
printf 'def meh: "meh";\n' > m/c/d.jq
printf '{\n  "this": "is a test",\n  "that": "is too"\n}\n' > m/data.json
printf 'def bah: "bah";\n' > m/lib/jq/e/e.jq
printf 'def f: "f is here";\n' > m/lib/jq/f.jq
printf 'wat;\n' > m/syntaxerror/syntaxerror.jq
printf 'import "test_bind_order0" as t;\nimport "test_bind_order1" as t;\nimport "test_bind_order2" as t;\ndef check: if [t::sym0,t::sym1,t::sym2] == [0,1,2] then true else false end;\n' > m/test_bind_order.jq
printf 'def sym0: 0;\n' > m/test_bind_order0.jq
printf 'def sym0: 1;\ndef sym1: 1;\n' > m/test_bind_order1.jq
printf 'def sym1: 2;\ndef sym2: 2;\n' > m/test_bind_order2.jq
printf '1\n' > m/one.jq
printf 'def x: "cwd-x";\n' > x.jq
printf 'import "x" as x; def y: x::x;\n' > m2/y.jq
printf 'def foo: "home";\n' > home/.jq
for p in 'import "a" as foo; import "b" as bar; def fooa: foo::a; [fooa, bar::a, bar::b, foo::a]' \
         'import "c" as foo; [foo::a, foo::c]' 'include "c"; [a, c]' '"c" | modulemeta' '"a" | modulemeta' \
         'import "test_bind_order" as check; check::check' 'import "nonexist" as x; 1' \
         'import "data" as $d; [$d, $d::d]' 'import "a" as foo; foo::b' 'import "a" as foo; a' \
         'import "syntaxerror" as e; .' '"nonexist" | modulemeta' '"syntaxerror" | modulemeta' '1 | modulemeta' \
         'import "c/d" as d; d::meh' 'import "lib/jq/e" as e; e::bah' 'import "b/b" as x; x::a' \
         'import "b/b/b" as x; x::a' 'import "a/../b" as x; 1' 'import "a" as foo; def a: 1; [a, foo::a]' \
         'include "a"; def a: 1; a' 'import "a" as foo; import "a" as bar; [foo::a, bar::a]' \
         'module {a:1}; import "a" as foo {x: 1}; foo::a' 'import "a" as foo; foo::a(1)' 'import "one" as o; 1' \
         'include "a" (.+1); 0' 'include "a" []; 0' 'include "\(1)"; 0' 'module (.+1); 0' 'module []; 0' \
         'def f: 1;' 'get_search_list | length'; do
  jq -nc -L m "$p" > out 2>/dev/null; echo "$? $(cat out)"
done
jq -nc 'import "m/a" as x; x::a'; jq -nc 'import "a" as x {search: "m"}; x::a'; jq -nc 'get_search_list, get_jq_origin'
jq -nc -L m2 'import "y" as y; y::y'; jq -nc -L /nonexistent -Lm 'get_search_list | map(ltrimstr(env.PWD))'; jq -nc -L /nonexistent -Lm 'import "a" as a; a::a'
HOME=$PWD/home jq -nc 'foo'
