IFS=$'\n' read -d '' -a lines <<< $'l1\n\nl3'; echo "${#lines[@]}"
