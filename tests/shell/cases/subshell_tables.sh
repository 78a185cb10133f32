# functions, aliases, set and shopt options, the directory stack, positional parameters and
# traps a ( ) or $( ) changes stay in it (a waited fork shares them until its first change)
f() { echo "f outer"; }
shopt -s expand_aliases; alias hi='echo hi-outer'
set -- p1 p2
( f() { echo "f inner"; }; f; alias hi='echo hi-inner'; set -f; shopt -s nullglob; set -- q; echo "in: $# $- $(shopt -p nullglob)" )
f; hi; echo "out: $# $1 $-"; shopt -p nullglob
v=$(g() { echo g; }; unset -f f; unalias hi; set -u; shopt -s extglob; echo "$(type -t f) $(type -t g) $-")
echo "$v"; type -t f; type -t g || echo "no g"; alias hi; echo "$-"; shopt -p extglob
( unalias -a; alias | wc -l ); alias | wc -l
( shopt -o -s noclobber; set -o | grep noclobber ); set -o | grep noclobber
( set +o allexport -o xtrace 2>/dev/null; set -o | grep -c 'xtrace *on' ) 2>/dev/null; set -o | grep 'xtrace'
pushd /tmp >/dev/null; pushd / >/dev/null; ( dirs -c; dirs ); dirs | wc -w; popd >/dev/null; popd >/dev/null
h() { ( shift; echo "in h: $*" ); echo "h: $*"; k() { echo "k from h"; }; ( unset -f k h ); k; type -t h; }
h a b c
trap 'echo trapped-int' INT; ( trap 'echo inner' INT; trap -p INT ); trap -p INT; trap - INT
( f() { echo "redefined"; }; ( f ); $(f >&2) ) 2>&1; f
x=$( ( set -e; false; echo "not here" ); echo "after $?" ); echo "$x"; set -o | grep errexit
w=$(shopt -s failglob; shopt -p failglob); echo "$w"; shopt -p failglob
echo end
