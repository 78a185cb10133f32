sh -c 'echo "sh $0"' myname
