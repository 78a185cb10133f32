x=5 y=10
if [ $x -lt $y ] && [ $y -lt 20 ]; then echo both; fi
if [[ $x -gt 1 && ( $y -eq 10 || $y -eq 11 ) ]]; then echo grouped; fi
if ! [ -e nothing ]; then echo negated; fi
if (( x * 2 == y )); then echo arith-true; fi
if test "$x" = 5 -a "$y" = 10; then echo test-and; fi
