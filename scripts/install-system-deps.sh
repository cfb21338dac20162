#!/usr/bin/env bash
# Install the Debian packages one purpose needs, when missing and when root.
#   collect: the benchmark tools the collector runs (fio, flashbench, f3probe, nvme-cli)
#   test:    those, plus Chromium for the browser tests and the loop-device tools of the collector and guard tests
#            (fuse2fs mounts an image without a loop device, as the guard must notice)
set -euo pipefail
declare -A need
case "${1:-}" in
  collect) need=([fio]=fio [flashbench]=flashbench [f3probe]=f3 [nvme]=nvme-cli) ;;
  test) need=([fio]=fio [flashbench]=flashbench [f3probe]=f3 [nvme]=nvme-cli [chromium]=chromium [losetup]=mount
              [mkfs.ext4]=e2fsprogs [partx]=util-linux [setpriv]=util-linux [stdbuf]=coreutils [fuse2fs]=fuse2fs) ;;
  *) echo "usage: $0 collect|test" >&2; exit 2 ;;
esac
missing=()
for cmd in "${!need[@]}"; do
  command -v "$cmd" >/dev/null 2>&1 || missing+=("${need[$cmd]}")
done
[ ${#missing[@]} -eq 0 ] && exit 0
mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
if [ "$(id -u)" -ne 0 ]; then
  echo "missing Debian packages: ${missing[*]} (run as root, or: sudo apt-get install ${missing[*]})" >&2
  exit 0
fi
echo "installing Debian packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
