echo ${x:-'single q'}
