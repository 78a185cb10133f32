# extglob groups are words with quotes and expansions inside; extglob is off in bash -c / scripts
a=false b=true
if !($a && $b); then echo negated subshell; fi
c1=help c2=verbose
[[ --verbose == --@($c1|$c2) ]] && echo "[[ == ]] is always extglob"
x='@(a|x)b'
[[ ab == $x ]] && echo "also from a variable"
shopt -s extglob
mkdir eg && cd eg
touch '_[:]' '_*' '_?' foo.cc foo.h foo. 'a b' '__|'
echo @('_[:]'|'_*'|'_?')
ext=cc
echo foo.?($ext|h) @(a b|x) @('foo.'|__\|)
echo @(__nope__*|'*'|'?'|'|')
IFS=c ABC="c?d"
echo ab+($ABC)
IFS=' '
[[ -- == !(-*) ]] || echo "!() does not match"
case foo.h in *.@(c|h)) echo case;; esac
