echo hello world
echo -n no newline; echo
echo -e 'tab\there\nnewline'
echo -E 'raw\n'
echo "quoted   spaces" unquoted   spaces
echo '$HOME' "\$x" \$y
