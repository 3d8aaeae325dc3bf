#!/usr/bin/env bash
# One piece of a sharded certification campaign ([Check.shard]): piece K of N, on any machine.
# Called by the CI matrix (github-actions.yml) and the Slurm job array (slurm-piece.sbatch); merge.sh
# puts the N pieces back together.
#
#   examples/shards/piece.sh K N [WORK]      (WORK defaults to ./campaign)
#
# 1. The golden set, whole: `golden` is deterministic ([Check.golden]), so every piece writes the same
#    bytes and no piece waits for another (or download one golden folder made once, as an artifact).
# 2. The piece's own cases: `golden --shard K/N` writes only the test_data_set_k folders of piece K
#    (the same bytes as in the whole set); the implementation under test (IUT) runs on them alone.
# 3. `check --shard K/N` judges piece K against the whole golden set and writes a piece report.
#    A piece that does not conform exits 1; the campaign's verdict is the merge's (merge.sh), so the
#    status is kept in WORK/status-K and the piece succeeds as a job.
#
# Environment: MODEL (examples/max_reduce_hardmax.onnx), SEED (2024), CASES (200), SONNX_REF (sonnx-ref),
# IUT: the command that runs the implementation under test, given INPUT_DIR OUTPUT_DIR (default: the
# numpy stand-in examples/numpy_iut.py, which fails the signed-zero clauses).
set -euo pipefail
K="$1"; N="$2"; work="${3:-campaign}"
here="$(cd "$(dirname "$0")" && pwd)"
model="${MODEL:-$here/../max_reduce_hardmax.onnx}"
seed="${SEED:-2024}"; cases="${CASES:-200}"; sonnx="${SONNX_REF:-sonnx-ref}"
iut="${IUT:-/usr/bin/python3 $here/../numpy_iut.py}"
mkdir -p "$work/reports"
cd "$work"
rm -rf "golden" "piece-$K" "iut-$K"
"$sonnx" golden "$model" -o golden --seed "$seed" --cases "$cases" -q
"$sonnx" golden "$model" -o "piece-$K" --seed "$seed" --cases "$cases" --shard "$K/$N" -q
$iut "piece-$K" "iut-$K"
status=0
"$sonnx" check golden/model.onnx golden "iut-$K" --shard "$K/$N" --report "reports/check-$K.json" --quiet || status=$?
echo "$status" > "status-$K"
[ "$status" -le 1 ] || exit "$status"   # 0 conforms, 1 does not: both are verdicts; anything else is an error
echo "piece $K/$N: reports/check-$K.json (check exit status $status)"
