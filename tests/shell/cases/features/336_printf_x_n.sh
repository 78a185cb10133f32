printf '%#x %#X\n' 255 255
