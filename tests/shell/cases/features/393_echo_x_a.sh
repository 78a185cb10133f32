echo x{a,b}{1..2}y
