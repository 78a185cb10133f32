#!/usr/bin/env bash
# The base image of deploy/Dockerfile without any image registry: Debian 12 made by mmdebstrap
# from Debian's own mirror (the host's apt sources), then `docker import`ed.
#   deploy/base.sh [TAG] [TARBALL]   (default TAG sandbox-kernel-base:bookworm; TARBALL is kept as a cache)
# Runtime packages only: python3 + venv for the kernel, qemu-system-x86 for %%vm; the guest is
# imported (vm-image --import), so no compiler or apt index is needed in the image.
set -euo pipefail
tag=${1:-sandbox-kernel-base:bookworm}
tarball=${2:-}
packages=python3,python3-venv,qemu-system-x86,passwd,ca-certificates,procps,tini
if [ -z "$tarball" ] || [ ! -s "$tarball" ]; then
  out=${tarball:-$(mktemp -u --suffix=.tar)}
  partial=${out%.tar}.partial.tar   # mmdebstrap picks the output format by the name's suffix
  rm -rf "$partial"
  mmdebstrap --quiet --variant=apt --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' bookworm "$partial"
  mv "$partial" "$out"
  tarball=$out
fi
docker import --change 'ENV LANG=C.UTF-8' --change 'CMD ["/bin/bash"]' "$tarball" "$tag" >/dev/null
echo "$tag"
