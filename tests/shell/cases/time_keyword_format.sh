# the time keyword: TIMEFORMAT's fields, -p, an empty format, a bad field
{ time true; } 2>&1 | sed 's/[0-9]/N/g'
{ time -p true; } 2>&1 | sed 's/[0-9]/N/g'
TIMEFORMAT='%0R|%1U|%lS|%%|%3lR end'
{ time true; } 2>&1 | sed 's/[0-9]/N/g'
TIMEFORMAT=''
{ time true; } 2>&1; echo "empty $?"
TIMEFORMAT='%x'
{ time false; } 2>&1; echo "bad $?"
