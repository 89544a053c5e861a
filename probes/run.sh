#!/bin/bash
# Build and run the driver probes on a machine with a CUDA 13 driver.
# Each topic's output goes to $OUT/<topic>.txt; build and environment notes to $OUT/env.txt.
# Usage: OUT=/some/dir bash probes/run.sh [topic...]   (topics: managed ctx ctxtime pool ptrattr vmm latency streamops families batch ptrsweep ptrattr_new ranges vmmsweep poolsweep faults ctxid pack edges kapi texobj)
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/probes-out}
mkdir -p "$OUT"
CUDA=${CUDA_HOME:-/usr/local/cuda}
CC=${CC:-gcc}
B=$(mktemp -d)
topics=${*:-"managed ctx pool ptrattr vmm latency streamops ptrsweep ptrattr_new ranges vmmsweep poolsweep pack edges"}
{
    echo "env.date: $(date -u +%FT%TZ)"
    echo "env.uname: $(uname -r)"
    nvidia-smi -L 2>&1 | sed 's/^/env.gpu: /'
    nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>&1 | head -1 | sed 's/^/env.driver: /'
    echo "env.cc: $($CC --version | head -1)"
    ls -l /usr/lib/x86_64-linux-gnu/libcuda.so* /usr/local/nvidia/lib64/libcuda.so* 2>/dev/null | sed 's/^/env.libcuda: /'
} > "$OUT/env.txt" 2>&1
for t in $topics; do
    if [ -f "$here/$t.cu" ]; then
        # kernels: built with the toolkit's nvcc on the machine that runs them
        build=("$CUDA/bin/nvcc" -O2 -arch=sm_90 -o "$B/$t" "$here/$t.cu" -lcuda)
    else
        build=($CC -O2 -Wall -Wno-format-truncation -o "$B/$t" "$here/$t.c" -I"$CUDA/include" -L"$CUDA/lib64/stubs" -L"$CUDA/lib64" -lcuda)
    fi
    if ! "${build[@]}" >> "$OUT/env.txt" 2>&1; then
        echo "$t.build: FAILED" > "$OUT/$t.txt"
        continue
    fi
    [ "$t" = managed ] && ldd "$B/$t" | grep -i cuda | sed 's/^/env.ldd: /' >> "$OUT/env.txt"
    start=$(date +%s%N)
    timeout 200 "$B/$t" > "$OUT/$t.txt" 2>&1
    rc=$?
    echo "$t.exit: $rc ms=$(( ($(date +%s%N) - start) / 1000000 ))" >> "$OUT/$t.txt"
    echo "$t.exit: $rc" >> "$OUT/env.txt"
    # cases that may crash the driver's caller: one process each, appended to the topic's file
    case $t in
        ctx) risky="eventquery_destroyed streamquery_destroyed devicegetname_len0" ;;
        vmm) risky="release_garbage_handle export_garbage_handle props_garbage_handle map_garbage_handle map_freed_handle" ;;
        batch) risky="decompress_null_index" ;;
        poolsweep) risky="set_null_value" ;;
        *) risky="" ;;
    esac
    for k in $risky; do
        timeout 60 "$B/$t" risky "$k" >> "$OUT/$t.txt" 2>&1
        echo "$t.risky.$k.exit: $?" >> "$OUT/$t.txt"
    done
done
rm -rf "$B"
