printf '%5s|%-5s|\n' 'é' 'é'
