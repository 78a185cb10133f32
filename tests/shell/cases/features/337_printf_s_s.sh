printf '[%-8s][%8s]\n' left right
