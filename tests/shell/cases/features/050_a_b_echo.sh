[ a \> b ] || echo notgt
