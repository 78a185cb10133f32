trap 'echo exiting $?' EXIT; (exit 4)
