sleep 0.01 & wait; echo waited
