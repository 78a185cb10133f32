trap 'echo err' ERR; false; true
