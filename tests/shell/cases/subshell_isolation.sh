# nothing a command substitution or ( ) changes reaches the shell that waits for it
start=$PWD; s=orig; n=5; a=(x y z); declare -A m=([k]=v); e=plain; u=set; i=7; lo=Mixed; ro=r
show() { echo "s=$s n=$n a=${a[*]} #a=${#a[@]} m=${m[k]}/${#m[@]} e=$e u=${u-UNSET} i=$i lo=$lo same-dir=${PWD/#"$start"/y}"; }
v=$(s=changed; s+=more; n=$((n+1)); a[1]=Y; a+=(w); m[k]=V; m[j]=J; unset u; export e; echo "$s $n")
echo "$v"; show; declare -p e u
( unset 'a[0]'; unset 'm[k]'; declare -i i; i=3+4; declare -l lo; lo=UPPER; declare -u s; s=up; echo "in: $i $lo $s ${#a[@]}" ); show
x=$(read -r s n <<< "r1 r2"; mapfile -t a <<< $'l1\nl2'; printf -v e '%s' printed; echo "$s $n ${a[*]} $e"); echo "$x"; show
( let n=99; (( i *= 2 )); : ${newvar:=assigned}; for s in f1 f2; do :; done; echo "in: $n $i $newvar $s" ); show; echo "newvar=${newvar-UNSET}"
mkdir -p sub; ( cd sub; echo "in: ${PWD##*/} ${OLDPWD/#"$start"/y}" ); show
( set -o noglob; shopt -s nullglob; echo "in: $-" | tr -d c ); echo "$-" | tr -d c
( IFS=, read -r p q <<< "1,2"; echo "in: $p $q" ); echo "IFS unchanged: [$IFS]" | od -c | head -2 | tail -1 >/dev/null; echo "p=${p-UNSET}"
ref() { declare -n r=$1; r=viaref; }; ( ref s; echo "in: $s" ); show
[[ abc =~ (b)(c) ]]; ( [[ xyz =~ (y) ]]; echo "in: ${BASH_REMATCH[*]}" ); echo "out: ${BASH_REMATCH[*]}"
f() { local l=outer k=1; g=$(l=inner; k=$((k+1)); local z=zz; echo "$l $k $z"); echo "$g | $l $k"; ( l=sub; local m2=m ); echo "$l ${m2-UNSET}"; }
f; echo "l=${l-UNSET}"
w=$(x1=$(s=deep; echo "$s"); echo "$x1 $s"); echo "$w"; show
( readonly s; s=try ) 2>/dev/null; s=afterro; echo "$s"
y=$( (s=bg; echo "bg $s") & wait ); echo "$y"; show
getopts ab: opt -a; ( OPTIND=1; getopts ab: opt -b val; echo "in: $opt $OPTARG $OPTIND" ); echo "out: $opt $OPTIND"
# each of these is the first change its subshell makes
z=$(export e n; echo ok); echo "$z"; declare -p e n
( readonly e ); e=plain2; echo "$e"
( declare -i i; i=1+1 ); i=3+3; echo "$i"
( unset n ); echo "n=$n"
( unset -n s ); echo "s=$s"
( read -r n <<< 42 ); echo "n=$n"
( a+=(more) ); echo "${a[*]}"
( m[new]=1 ); echo "${!m[*]}"
( declare -A m; m[k]=other ); echo "${m[k]}"
( IFS=: ; set -- a:b; echo "$#" ); echo "[${IFS}]" | od -An -c | tr -s ' '
h() { local loc=1; ( loc=2; export loc ); $(loc=3) 2>/dev/null; echo "loc=$loc"; declare -p loc; }; h
( set -o noglob ); echo "$SHELLOPTS"
( IFS=: read -r p q <<< "1:2"; echo "in: [$IFS] $p $q" )
k() { local have=1; ( local fresh=1 ); echo "fresh=${fresh-UNSET}"; declare -p fresh 2>/dev/null || echo "no fresh"; }; k
# ulimit and the command hash table set in a subshell stay in it
ulimit -n 200
( ulimit -n 100; echo "in ( ) $(ulimit -n)" ); echo "after ( ) $(ulimit -n)"
v=$(ulimit -n 50; ulimit -n); echo "in \$( ) $v, after $(ulimit -n)"
hash -r
( cat </dev/null; cat </dev/null; hash | wc -l ); hash 2>&1 | wc -l
x=$(cat </dev/null; hash | wc -l); echo "hashed in \$( ) $x, after $(hash 2>/dev/null | wc -l)"
cat </dev/null; ( hash -r; hash 2>&1 | wc -l ); hash | wc -l
hash -r; cat </dev/null | { cat </dev/null; cat </dev/null; hash; }; hash 2>&1
shopt -s lastpipe; hash -r; echo | cat; hash | wc -l; shopt -u lastpipe
# a subshell's first assignment copies one variable: later writes of every kind, nested
# forks and functions still change only the subshell
a=1 b=2 arr=(x y) ; declare -A m=([k]=v)
( a=10; b=20; export a; unset b; arr[1]=Y; m[k]=V; echo "in: $a ${b-unset} ${arr[*]} ${m[k]}"; env | grep '^a=' )
echo "out: $a $b ${arr[*]} ${m[k]}"; env | grep -c '^a=' || true
( a=11; ( a=12; b=22; echo "inner $a $b" ); echo "middle $a $b"; v=$(a=13; echo $a); echo "subst $v $a" )
echo "out: $a $b"
f() { local l=1; ( l=2; a=3; ( l=4; echo "deep $l $a" ); echo "fn sub $l $a" ); echo "fn $l $a"; }; f
( a=5; readonly a; declare -p a ); declare -p a
( x=new; y=$x; echo "created $x $y" ); echo "created out: ${x-unset} ${y-unset}"
( a=6; sleep 0 & wait; a=7 & wait; echo "bg $a" ); echo "bg out $a"
( a+=z; a+=z; b=${a}b; echo "$a $b" ); echo "$a $b"
( cd /tmp; cd /; echo "$PWD $OLDPWD" ); echo "${PWD:+pwd kept}"
g() { ( a=8; unset -f g; declare -f g >/dev/null || echo "g gone inside" ); }; g; declare -f g >/dev/null && echo "g kept"
( set -- p q; a=9; shift; echo "$a $*" ); echo "$a $*"
# a pipeline stage's command lookups are not remembered by the shell, and a command gone
# since the last lookup is searched for again
mkdir -p /tmp/qbin1 /tmp/qbin2; printf '#!/bin/sh\necho one\n' > /tmp/qbin2/qcmd; chmod +x /tmp/qbin2/qcmd
OLDPATH=$PATH; PATH=/tmp/qbin1:/tmp/qbin2:$PATH; hash -r
echo | qcmd; hash 2>&1; rm /tmp/qbin2/qcmd; echo | qcmd 2>/dev/null; echo "gone $?"
printf '#!/bin/sh\necho two\n' > /tmp/qbin1/qcmd; chmod +x /tmp/qbin1/qcmd; echo | qcmd; qcmd; hash | sed 's/^ *//'
PATH=$OLDPATH; rm -r /tmp/qbin1 /tmp/qbin2
