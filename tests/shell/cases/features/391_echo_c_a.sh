echo {c..a}
