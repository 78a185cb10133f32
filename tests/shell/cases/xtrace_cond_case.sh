# xtrace of [[ ]]: each test as it runs, words expanded, quoted pattern characters escaped;
# case shows its word as written
exec 2>&1
set -x; x=hi; p="h*"; a=(1 2); [[ $x == "$p" ]]; [[ $x == $p ]]; [[ -n $x && $x != "a b" ]]; [[ ${a[@]} == "1 2" ]]; [[ $x =~ ^h(.)$ ]]; [[ $(echo a) < b ]]; [[ ! -z "$x" || -f /nonexist ]]
[[ $x =~ "a.b"c* ]]; [[ $x ]]; [[ -n $x && ! -z $x ]]; [[ $x == "a"* ]]; [[ "$x" -eq 0 ]]; [[ $x = ab\* ]]; [[ "" ]]; [[ -v x ]];  [[ $x == @(a|b) ]]; y="a b"; [[ $y ]]; [[ $y < "c d" ]]
[[ "$x" == "h"? ]] && echo m1; [[ $x == "h*" ]] || echo m2; [[ a\ b == "a b" ]] && echo m3
set +x
f() { [[ a == b && c = d ]]; }; declare -f f
set -x; x="a b"; case $x in *) ;; esac; case "lit" in *) ;; esac; case lit in *) ;; esac; case ~ in *) ;; esac; case "$x"\ y in *) ;; esac; case $(echo q) in q) ;; esac
