for ((;;)); do break; done; echo ok
