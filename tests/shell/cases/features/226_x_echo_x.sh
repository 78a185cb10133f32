x=(1 2 3); echo "${x[@]/#/pre-}"
