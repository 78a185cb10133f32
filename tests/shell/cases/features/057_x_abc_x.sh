x=abc; [[ $x =~ ^a(.)c$ ]]; echo ${BASH_REMATCH[@]}
