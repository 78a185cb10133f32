times | wc -l
