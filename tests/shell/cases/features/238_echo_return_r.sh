echo 'return 7' > r.sh; . ./r.sh; echo rc=$?
