# LC_CTYPE from LC_ALL, LC_CTYPE, LANG: in C/POSIX (or a locale this machine lacks) ${#s},
# ${s:i:n}, pattern operators and globs count bytes; a locale that fails to load keeps the last
LC_ALL=C.UTF-8; unset LC_ALL LC_CTYPE; LANG=C.UTF-8
s='_μ_ and _μ_'
echo "${#s} ${s:1:2} ${s//_?_/x} ${s#_?} ${s%?_}"
LC_ALL=C
echo "${#s} ${s//_?_/x} ${s/#_?_/x} ${s/%_?_/x} ${s//_??_/x}" | od -An -c
echo "${s#_?}" "${s%?_}" "${s:1:2}" | od -An -c
LC_ALL=POSIX; echo "${#s}"
unset LC_ALL; echo "${#s}"
LC_CTYPE=C; echo "${#s}"; LC_CTYPE=
LANG=en_US.UTF-8; echo "after a locale this machine lacks: ${#s}"
unset LANG; echo "nothing set: ${#s}"
LANG=en_US.UTF-8; echo "then a missing one: ${#s}"
LANG=C.UTF-8
for t in $'\u03bc' $'\U00010000' $'\u00e9t\u00e9'; do
  LC_ALL=C; n=${#t}; LC_ALL=C.UTF-8; echo "$n ${#t}"
done
mkdir -p globs && cd globs && touch _x_ _μ_ _éé_
LC_ALL=C; echo _?_ _??_ _????_
LC_ALL=C.UTF-8; echo _?_ _??_ _????_
f() { local LC_ALL=C; echo "${#1}"; }; f μμ; echo "${#s}"
m() { case $1 in ?) echo "case: one";; ??) echo "case: two";; *) echo "case: more";; esac
      [[ $1 == ? ]] && echo "[[: one" || echo "[[: not one"; }
cd ..; LC_ALL=C; m μ; p='?'; [[ μ == $p$p ]] && echo dyn-two
LC_ALL=C.UTF-8; m μ; [[ μ == $p ]] && echo dyn-one
