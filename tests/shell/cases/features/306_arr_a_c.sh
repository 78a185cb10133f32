arr=(a "" c); echo ${#arr[@]}; for x in "${arr[@]}"; do echo "[$x]"; done
