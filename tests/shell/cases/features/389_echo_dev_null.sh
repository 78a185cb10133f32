echo {1..10..0} 2>/dev/null || true
