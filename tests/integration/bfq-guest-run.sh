#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Run INSIDE the qemu guest (scripts/v2-guest) by bfq_here_or_guest
# (v2-lib.sh): sh bfq-guest-run.sh ABBENCH SRCDIR SHARE TEST. The guest's
# kernel has bfq; TEST, a test of the host's suite that needs a bfq loop
# device, runs here as it would on a host with bfq, its TAP on stdout.
# Loop files go where make_loop puts them, /var/tmp: there the guest has
# a tmpfs, on which this kernel refuses a direct-I/O loop device, so the
# scratch disk (ext4 on virtio) is bound over it, its scheduler
# mq-deadline as the host's disk has (scripts/v2-guest-init gives it bfq
# for t0750): `abbench env` looks through a loop device at the disk of its
# file too, and the loop device is to be the only bfq disk, as the tests
# assume.
ABBENCH=$1 ABBENCH_SRCDIR=$2 SHARE=$3 TEST=$4
ABBENCH_BUILDDIR=$(dirname "$ABBENCH")
export ABBENCH ABBENCH_SRCDIR ABBENCH_BUILDDIR
if [ -n "${ABBENCH_V2_SCRATCH:-}" ]; then
	mkdir -p "$ABBENCH_V2_SCRATCH/vartmp"
	chmod 1777 "$ABBENCH_V2_SCRATCH/vartmp"
	mount --bind "$ABBENCH_V2_SCRATCH/vartmp" /var/tmp
	echo mq-deadline >/sys/block/vda/queue/scheduler
fi
exec sh "$TEST"
