# a function's `local -n` ends with it; the namerefs that live on still work afterwards, in
# loops and assignments (global ones, -g ones made in a function, one hidden by VAR=x cmd)
push() { local -n arr=$1; arr+=("$2"); }
for i in 1 2 3; do push list "item$i"; done
echo "${list[@]}"
total=0; for ((i = 0; i < 5; i++)); do total=$((total + i)); done; echo "total=$total"
declare -n ref=target
target=1
peek() { local -n inner=$1; echo "peek $inner"; }
peek target
for v in a b; do ref=$v; echo "target=$target ref=$ref"; done
mk() { declare -gn G=gtarget; local -n l=target; }
mk
G=5; echo "gtarget=$gtarget"
hide() { local -n q=target; }
ref=hidden eval hide
ref=after; echo "target=$target"
for i in 1 2; do ref+=$i; done; echo "target=$target"
unset -n ref
ref=plain; echo "ref=$ref target=$target"
