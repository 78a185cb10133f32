x=$(for i in 1 2 3; do echo $i; done | paste -sd+ 2>/dev/null); echo "$x"
