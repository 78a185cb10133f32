unset -v PATH_NOT_SET; echo ok
