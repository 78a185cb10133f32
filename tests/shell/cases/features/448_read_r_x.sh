read -r x <<< 'a\b'; read y <<< 'a\b'; echo "$x $y"
