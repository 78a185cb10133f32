IFS=: read a b c <<< "1:2"; echo "$a-$b-$c"
