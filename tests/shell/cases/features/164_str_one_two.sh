str="one two three"; set -- $str; echo "$2"
