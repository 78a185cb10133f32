declare -A h=([one]=1); echo "${h[one]}" "${h[two]:-none}"
