echo abcabc | sed 's/b/B/2'
