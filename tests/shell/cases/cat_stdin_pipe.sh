# stdin: zebra\napple\nmango\n
sort | head -n 2
