printf '\101\n'
