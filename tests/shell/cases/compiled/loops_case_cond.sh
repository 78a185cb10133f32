# loops, case and [[ ]] through the compiled runners
n=0; for ((i=0;i<30;i++)); do case $((i % 4)) in 0) x=a;; 1) x=b;& 2) x=c;; *) x=d;;& esac; [[ $x == c ]] && n=$((n+1)); done; echo $n
i=0; while [ $i -lt 10 ]; do i=$((i+1)); [[ $i -eq 5 ]] && continue; [[ $i -gt 8 ]] && break; done; echo "while $i"
for ((i=0; i<3; i++)); do for ((j=0; j<3; j++)); do (( j == 1 )) && continue 2; echo "$i$j"; done; done
shopt -s nocasematch; [[ ABC == a* ]] && echo nocase; case XyZ in xyz) echo case-nocase;; esac; shopt -u nocasematch
[[ 1 -eq 1+ ]]; echo "cond-arith $?"
if [[ 1 -eq 1+ ]]; then echo no; fi; echo "line goes on $?"
[[ x -lt 2 ]] && echo unset-is-zero
[[ -n "" || -z "" ]] && echo or; [[ ! -e /nonexistent ]] && echo not
printf 'l1\n l2 \n\tl3\nlast' > f; while read -r l; do echo "[$l]"; done < f
while read a b; do echo "<$a|$b>"; done <<< "one two three"
c=0; until (( c >= 3 )); do (( c++ )); done; echo "until $c"
for w in x "y z"; do echo "for $w"; done
# constant patterns with wildcards and quoted parts
for w in 7 17 12 1x abc "*" "a*b" "[1]"; do case "$w" in *7*) echo "$w:7";; [12]?) echo "$w:12";; "*") echo "$w:star";; a"*"b) echo "$w:lit";; \[1\]) echo "$w:br";; *) echo "$w:other";; esac; done
shopt -s nocasematch; case ABC in a?c) echo nocase;; esac; shopt -u nocasematch; case ABC in a?c) echo never;; *) echo case;; esac
