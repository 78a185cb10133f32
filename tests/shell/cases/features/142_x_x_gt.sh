x=5; [ $x -gt 3 ] && [ $x -lt 10 ] && echo between
