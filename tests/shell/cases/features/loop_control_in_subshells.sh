# break/continue in ( ) and in a compound pipeline stage do not reach the enclosing loop
# (bash says so and goes on); in a simple pipeline stage or a background job they end quietly.
for i in 1 2; do (break); echo "subshell $i: $?"; done
for i in 1 2; do (continue 2); echo "subshell continue $i: $?"; done
for i in 1 2; do echo x | break; echo "pipe $i"; done
for i in 1 2; do break & wait; echo "bg $i"; done
for i in 1 2; do { break; } | cat; echo "group $i"; done
for i in 1 2; do (break x); echo "bad arg in subshell $i: $?"; done
for i in 1 2 3; do for j in a b; do (break 2); echo "$i$j"; done; done
