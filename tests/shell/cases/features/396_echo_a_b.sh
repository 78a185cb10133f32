echo {a,b,c}.{txt,log} | wc -w
