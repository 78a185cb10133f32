# a warning the last expansion of a ( ), a $( ) or a function made (an out-of-range element)
# is printed before it ends, with the function's place in the message
a=(1 2 3); ( x=${a[-5]} ) 2>&1; echo "subshell $?"
a=(1 2 3); y=$(x=${a[-6]}; echo in) 2>&1; echo "substitution $y $?"
a=(1 2 3); f() { x=${a[-7]}; }; f 2>&1; echo "function $?"
a=(1 2 3); g() { x=${a[-8]}; return 3; }; g 2>&1; echo "function $?"
