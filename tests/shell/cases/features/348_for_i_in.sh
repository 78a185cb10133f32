for i in $(seq 5); do [ $((i % 2)) -eq 0 ] && continue; echo $i; done
