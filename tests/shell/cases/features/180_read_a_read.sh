{ read a; read b; } <<< $'1\n2'; echo "$a $b"
