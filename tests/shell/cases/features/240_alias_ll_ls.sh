alias ll='ls -l'; type ll 2>/dev/null || echo noalias
