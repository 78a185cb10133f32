printf '%.0f %.1f\n' 2.5 0.05
