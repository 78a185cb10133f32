printf '%5.1e\n' 12345
