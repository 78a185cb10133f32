n=0; while true; do n=$((n+1)); [ $n -ge 5 ] && break; done; echo $n
