a=1; echo {$a..3}
