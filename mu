aμb
