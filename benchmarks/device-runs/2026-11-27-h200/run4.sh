#!/bin/bash
# Fourth command: the 16-core host at SCALE 24, our compiled default (graph500 run, 8 roots,
# one untimed warm-up) against GAP's bfs on 16 threads from the same roots (one process per
# root, GAP's "Trial Time"), GAP built by run 1 in /tmp/w/gap.
export PYTHONPATH=/tmp/site:$PWD/src PYTHONUNBUFFERED=1 NUMBA_CACHE_DIR=/tmp/numba-cache; W=/tmp/w
ls $W/gap/int/bfs || bash .device/peers/gap.sh build $W/gap
timeout 60 python3 -m pygraph500 run --backend cpu --scale 24 --roots 8 --json $OUT/ours24cpu.json > $OUT/ours24cpu.txt 2>&1
python3 -c "import json; print(' '.join(str(r) for r in json.load(open('$OUT/ours24cpu.json'))['roots']))" > $OUT/roots24.txt
timeout 70 python3 -m pygraph500 generate --scale 24 --out $W/g24.txt -q; ln -sf $W/g24.txt $W/g24.el
timeout 120 bash .device/peers/gap.sh bfs $W/gap $W/g24.el $OUT/roots24.txt 16 > $OUT/gap24.txt 2>&1
