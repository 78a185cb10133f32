printf '%e\n' 0
