[ 2 -lt 10 ] && echo numeric-lt; [[ 2 < 10 ]] || echo string-not-lt
