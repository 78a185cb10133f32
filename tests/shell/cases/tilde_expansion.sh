echo ~ | grep -c /
x=~/file; [[ $x == */file ]] && echo tilde-assign
echo "~"
echo '~'
