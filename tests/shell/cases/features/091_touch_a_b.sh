touch a b; rm -v a | head -c 0; ls
