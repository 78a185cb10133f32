echo "tab	x" | cut -f2
