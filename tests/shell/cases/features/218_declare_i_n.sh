declare -i n; n="5+5"; echo $n; n=abc; echo $n
