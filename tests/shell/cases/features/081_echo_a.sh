{ echo a >&3; } 3>&1
