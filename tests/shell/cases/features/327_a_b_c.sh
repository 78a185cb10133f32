a=2; b=3; (( c = a ** b )); echo $c
