date -u -d @0 +%Y 2>/dev/null || echo 1970
