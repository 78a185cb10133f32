a='$HOME'; echo "$a" $a
