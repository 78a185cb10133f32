for i in {1..3}; do for j in {1..3}; do (( i == j )) && continue; echo -n "$i$j "; done; done; echo
