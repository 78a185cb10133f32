declare -A ages=([alice]=30 [bob]=25 [carol]=35 [dave]=28)
for name in $(echo "${!ages[@]}" | tr ' ' '\n' | sort); do
  echo "$name ${ages[$name]}"
done
oldest=""; max=0
for name in "${!ages[@]}"; do (( ages[$name] > max )) && { max=${ages[$name]}; oldest=$name; }; done
echo "oldest: $oldest ($max)"
