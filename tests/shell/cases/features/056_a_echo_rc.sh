[[ a =~ ( ]] ; echo "rc=$?"
