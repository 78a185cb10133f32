printf '%03d\n' 5 50 500 5000
