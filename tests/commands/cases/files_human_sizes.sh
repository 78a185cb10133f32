# human-readable sizes: ls -lh/--si and du -h round up like GNU
for n in 0 1 1023 1024 1025 1536 10239 10240 10241 102399 1048575 1048576 1572864 10485760 104857599; do truncate -s $n f$n; done
ls -lh | awk 'NR>1 {print $5, $9}'
ls -l --si f1025 f10241 f1048576 | awk '{print $5}'
du -h --apparent-size f1025 f10241 f1048575 f104857599
du -b f1025
