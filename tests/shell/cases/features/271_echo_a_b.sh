echo "\a\b\\c"
