read -n 3 part <<< "abcdef"; echo "$part"
read -d , first <<< "x,y,z"; echo "$first"
printf 'a b c\n' | { read -a arr; echo "${arr[2]} ${#arr[@]}"; }
read -r line <<< 'back\slash'; echo "$line"
read line <<< 'back\slash'; echo "$line"
echo "no newline" | { read -r l; echo "[$l]"; }
printf 'last' | { read -r l; echo "st=$? [$l]"; }
