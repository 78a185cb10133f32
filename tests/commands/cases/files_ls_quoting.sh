# ls quoting styles (-b -Q -q -N --quoting-style) in the C and C.UTF-8 locales
export LC_ALL=C
touch $'a\nb' 'c d' 'e"f' $'g\th' 'é' 'back\slash' "q'x"
ls -b; ls -Q; ls -q; ls -N | od -c | head -3
for s in literal shell shell-always shell-escape shell-escape-always c escape; do echo "== $s"; ls --quoting-style=$s; done
mkdir 'd i r'; touch 'd i r/x'; ls -Q -R 'd i r'; ls -lb | awk '{print $NF}' | tail -2
export LC_ALL=C.UTF-8; ls -b; ls -q; ls --quoting-style=shell-escape
