# words the compiled runners expand: plain text, $name, "..", ${a[i]}, ${#x}, $((..)), splitting, globs
mkdir -p d && touch d/a1 d/a2 d/b
v="d/a*"; echo $v "$v"; w="one  two"; echo $w "$w"; set -- $w; echo $#
IFS=: ; p="x:y::z"; echo $p; set -- $p; echo $#; unset IFS
a=(zero one two); i=1; echo ${a[i]} ${a[-1]} "${a[0]}" ${#a[@]} ${#a[*]} ${#i} k${a[2]}x
declare -A m=([k1]=v1 [k2]="v 2"); k=k2; echo ${m[k1]} "${m[$k]}" ${m[$k]} ${#m[@]}
n=5; echo $((n * 2)) "$((n + 1))" x$((n - 1))y $(( n > 3 ? 10 : 20 ))
s=; for ((j=0;j<100;j++)); do s+=ab; done; echo ${#s}
arr=(); for ((j=0;j<5;j++)); do arr+=($j "x $j"); done; echo ${#arr[@]} "${arr[9]}"
shopt -s nullglob; echo d/nomatch* end; shopt -u nullglob; echo d/nomatch*
set -f; echo d/a*; set +f
echo ${unset_var} "${unset_var}" x${unset_var}y
( set -u; echo ${a[7]}; echo never ) 2>/dev/null; echo "nounset $?"
( set -u; echo $nope; echo never ) 2>/dev/null; echo "nounset $?"
name=file_12.txt; echo ${name%.txt} ${name%%_*} ${name#*_} ${name##*[0-9]} ${name/1/X} ${name//[0-9]/N}
echo ${name/#file/F} ${name/%txt/md} ${name^^} ${name^} ${name,,} ${name~~} ${name^^[ft]} "${name%.*}" x${nope%a}y
p="*."; echo ${name#$p} "${name#"$p"}" ${name%"${name#*.}"}; v="a b"; echo ${v/ /_} "${v/ /  }" ${v%b}x
# ${x:-w} ${x-w} ${x:+w} ${x+w} in words, strings, arithmetic and subscripts (compiled) vs quoted words (generic)
x=; unset y; echo ${x:-a b} ${x-c} "${x:+d}" ${y:-$((1+2))} ${y-"q r"} x${y+set}y "${x+set}" ${x:+"no"}
declare -A t; t[k]=; for u in a b a; do t[$u]=$(( ${t[$u]:-0} + 2 )); done; echo ${t[a]} ${t[b]} "${t[k]:-def}" ${t[z]-zz} ${t[k]+set}
a=(1 "" 3); echo ${a[1]:-e} ${a[5]-u} ${a[0]:+p} $(( ${q:-"3"} * 2 )); z=${q:-"x y"}; echo "$z"; IFS=:; w=; echo ${w:-a:b}; unset IFS
( set -u; echo ${nope:-ok} ${nope-ok2} "${nope+no}" "${t[zz]:-ok3}"; echo $nope; echo never ) 2>/dev/null; echo "nounset $?"
v=abc; echo ${v#${x:-a}} ${v%${x:-c}} ${v/${x:-b}/B}; case ab in ${x:-a?}) echo m1;; esac; [[ axb == ${x:-a?b} ]] && echo m2
n=file_12.txt; echo ${n%.txt} ${n#file_} ${n%%.txt} ${n##file} ${n#} ${n%} ${n#\*} ${n%"txt"} ${n#x}; u=${n^^}; echo $u ${u,,} ${n~~} ${n^} ${n~} ${u,}
n=file_12.txt; echo ${n%\.txt} "${n%".t"*}" "${n#file_}" x"${n##fi}"; v="a*b"; echo "${v#a\*}" "${v%"*b"}" "${v#a*}" "${v%%*}"; h=~/x; echo "${h#~}"
