printf '%c' ''; echo x
