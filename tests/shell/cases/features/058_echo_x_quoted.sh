echo "${x:-"quoted default"}"
