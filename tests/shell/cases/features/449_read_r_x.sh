read -r x <<< '  a  '; echo "[$x]"; IFS= read -r y <<< '  a  '; echo "[$y]"
