# od's older one-letter formats (-B -D -e -F -H -h -I -L -O -X), alone and mixed with -t
printf '\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\377\376' > in
for o in B D e F H h I L O X; do echo "== -$o"; od -$o in; done
od -H -c in; od -Ax -X -tx1 in; printf '\377\377\377\377' | od -D; printf '\377\377\377\377\377\377\377\377' | od -I -L
od -Q in; echo "status $?"
