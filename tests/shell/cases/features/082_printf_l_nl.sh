printf 'l1\nl2\n' > f; exec 6<f; read -u 6 a; read -u 6 b; echo "$b $a"
