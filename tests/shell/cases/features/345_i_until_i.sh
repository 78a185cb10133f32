i=0; until [ $i -ge 3 ]; do echo -n "$i"; i=$((i+1)); done; echo
