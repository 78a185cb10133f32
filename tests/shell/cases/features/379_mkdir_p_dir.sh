mkdir -p 'dir a'; touch 'dir a/x'; ls 'dir a'; cd 'dir a' && pwd | grep -c 'dir a'
