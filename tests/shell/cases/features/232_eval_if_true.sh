eval "if true; then echo in-eval; fi"
