# name++ / name-- done in one step only for a plain decimal variable; everything else the general way
i=5; (( i++ )); echo "$i $((i++)) $i $((i--)) $i"
i=007; (( i++ )); echo "octal $i"; i=-1; (( i++ )); echo "neg $i"; i=0; (( i-- )); echo "down $i"
i=9223372036854775807; (( i++ )); echo "wrap $i"; i=" 12 "; (( i++ )); echo "spaced $i"
declare -i d=4; (( d++ )); echo "int $d"; declare -l l=3; (( l++ )); echo "lower $l"
readonly r=1; (( r++ )) 2>/dev/null; echo "readonly $? $r"
unset u; (( u++ )); echo "unset $u"; a=(7 8); (( a++ )); echo "array ${a[*]}"
f() { local k=1; (( k++ )); echo "local $k"; }; f
c=1; ( (( c++ )); echo "in ( ) $c" ); echo "after ( ) $c"; v=$( (( c++ )); echo $c ); echo "subst $v $c"
set -a; e=1; (( e++ )); env | grep '^e='; set +a
x=1; declare -n ref=x; (( ref++ )); echo "nameref $x"
for ((n = 0; n < 3; n++)); do :; done; echo "loop $n"
# an assignment to a readonly name in (( )) or let fails the command (status 1); in $(( )) it ends the line
readonly ro=1; (( ro++ )) 2>/dev/null || echo "(( )) failed"; let ro=2 2>/dev/null; echo "let $?"; (( ro = 3 )) 2>/dev/null; echo "assign $?"
