bash -c 'echo $#' a b c
