declare -p BASH_VERSINFO | head -c 12; echo
