f() { echo "[$*]"; }; IFS=:; f a b; IFS=' '
