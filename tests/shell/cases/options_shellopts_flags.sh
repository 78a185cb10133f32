# $-, SHELLOPTS and BASHOPTS follow set/shopt; SHELLOPTS is readonly; set -n stops running
echo "flags=$-"
set -o pipefail -o nounset
echo "flags=$-"
set +u
case :$SHELLOPTS: in *:xtrace:*) echo xtrace-on ;; *) echo xtrace-off ;; esac
set -o errexit
echo "$SHELLOPTS"
echo "sub=$(echo "$SHELLOPTS")"
set +o errexit
shopt -s nullglob
case :$BASHOPTS: in *:nullglob:*) echo nullglob-on ;; esac
shopt -u nullglob
( SHELLOPTS=x ) 2>/dev/null || echo "readonly status=$?"
shopt -s autocd cdable_vars; echo "stub shopts=$?"
shopt -p nullglob dotglob
set - +; echo "after set - +: $*"
set + -; echo "after set + -: $*"
set -x + -v a b 2>/dev/null; set +xv 2>/dev/null; echo "args: $*"
echo before-n
set -n
echo not-run
