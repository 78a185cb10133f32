printf 'x\ny\n' | sed -n '$p'
