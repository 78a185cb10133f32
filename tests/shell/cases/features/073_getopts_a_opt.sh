getopts "a" opt -b 2>/dev/null; echo "$opt $?"
