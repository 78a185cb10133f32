echo 'a:b' | awk -F: '{print $2}'
