true; echo "${PIPESTATUS[@]}"; false | true | false; echo "${PIPESTATUS[@]}"
