echo {-3..3}
