stack=()
push() { stack+=("$1"); }
pop() { local top=${stack[-1]}; unset 'stack[-1]'; echo "$top"; }
push a; push b; push c
echo "popped $(pop)"
pop >/dev/null
echo "size ${#stack[@]}: ${stack[*]}"
queue=(1 2 3 4)
while (( ${#queue[@]} )); do
  item=${queue[0]}; queue=("${queue[@]:1}")
  echo -n "$item "
done
echo
