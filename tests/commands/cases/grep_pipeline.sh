printf 'GET /a 200\nPOST /b 500\nGET /c 404\nGET /a 200\n' > access.log
grep -c GET access.log
grep -E ' (4|5)[0-9]{2}$' access.log
grep -v GET access.log | grep -o '[0-9]*$'
grep -n -A1 POST access.log
grep -q DELETE access.log; echo "status $?"
