printf 'x\ny\nz\n' | head -2 | tail -1
