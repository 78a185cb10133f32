basename /x/y/z.sh .sh; dirname /x/y/z.sh
