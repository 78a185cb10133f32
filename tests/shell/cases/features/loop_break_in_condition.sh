# break and continue inside a while/until condition
c=0; while [ $c -lt 2 ] || break; do c=$((c+1)); false; done; echo "while: $?"
c=0; while [ $c -lt 1 ] || break; do c=1; true; done; echo "while true body: $?"
c=0; until [ $c -ge 2 ] && break; do c=$((c+1)); false; done; echo "until: $?"
c=0; until [ $c -ge 1 ] && break; do c=1; true; done; echo "until true body: $?"
n=0; while n=$((n+1)); [ $n -gt 5 ] && break; [ $((n % 2)) -eq 0 ] && continue; true; do echo "odd $n"; done
for i in 1 2; do while break 2; do echo never; done; echo never; done; echo "nested: $?"
