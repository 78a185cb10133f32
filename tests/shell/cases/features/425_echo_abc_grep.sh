echo abc | grep -o b
