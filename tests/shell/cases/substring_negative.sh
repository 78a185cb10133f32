s=abcdefgh
echo "${s:2:3} ${s: -3} ${s: -3:2} ${s:(-2)} ${s:3} ${s:0:-2} ${s:10}"
arr=(a b c d e); echo "${arr[@]: -2} ${arr[@]:1:2}"
