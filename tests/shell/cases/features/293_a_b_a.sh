[[ "a b" == a\ b ]] && echo escaped-space
