# brace expansion works on the text: {$a,b}_c gives $a_c (the variable a_c), ${a} stays a
a=X; ab=Y; echo $a{b,c}; echo {$a,b}_{c,d}; echo {${a},b}_c; set -- one; echo $1{a,b}; a_c=Z; echo {$a,q}_c "{$a,b}_c"; echo x{$a}y
echo {_$a,b}_{c,d}
set -u; echo ${a}x $a-y
f() { echo $a ${a}x "$a" {$a,b}; }; declare -f f
echo $zz 2>&1
