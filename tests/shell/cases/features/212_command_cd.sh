command -V cd
