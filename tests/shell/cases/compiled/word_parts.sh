# words of several parts: joined as one field unless an unquoted expansion splits or globs
cd /tmp && rm -rf wj && mkdir wj && cd wj && touch a1.txt a2.txt b.txt
i=1; x="two words"; e=""; star='*'; long=$(printf 'x%.0s' {1..100})
for w in f$i.txt a$x.c pre$e''post $e$e "$e"$e $star.txt a$((i + 1)).txt -$i- ${long}y; do printf '<%s>' "$w"; echo; done
set -- f$i.txt a$x.c $e$e ''$e a$star; echo "$# $*"
IFS=1; n=12131; set -- a$n.b; echo "$# $*"; unset IFS
IFS=:; p=a:b; set -- x$p"y" $((7)):$p; echo "$# $*"; unset IFS
f() { echo "$#:$*"; }; f $((i * 10))x y$((i - 5)) $((i))$((i))
set -o noglob; set -- a$star; echo "noglob $1"; set +o noglob
cd /tmp && rm -rf wj
