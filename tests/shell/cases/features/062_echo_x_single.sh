echo "${x:-'single q'}"
