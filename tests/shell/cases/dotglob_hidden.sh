mkdir hid && cd hid
touch .a .b c
echo *
shopt -s dotglob
echo *
