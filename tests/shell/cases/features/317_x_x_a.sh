x=1; x=(a b); echo "$x" "${x[1]}"
