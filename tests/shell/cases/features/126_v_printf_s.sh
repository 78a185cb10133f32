v=$(printf '%s' 'a\tb'); echo "$v"
