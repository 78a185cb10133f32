{ sleep 0.05; echo late; } & echo early; wait
