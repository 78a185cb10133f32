echo {a..z..5}
