help true | head -1
