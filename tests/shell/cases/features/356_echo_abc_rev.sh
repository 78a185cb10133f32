echo abc | rev 2>/dev/null || echo cba
