wait; echo "wait status $?"
true & wait $!; echo "bg status $?"
