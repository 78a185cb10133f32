trap 'echo one' EXIT; trap 'echo two' EXIT; true
