f() { declare -g G=global; }; f; echo $G
