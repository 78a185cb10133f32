declare -a x=(a b); declare -p x; declare -i n=3; declare -p n
