#!/usr/bin/env bash
# The end of a sharded campaign: the N piece reports of piece.sh merged into the report the unsharded
# run writes ([Check.report.merge]), and that report as one self-contained HTML page
# ([Check.report.html]). Exits 1 when the campaign does not conform (--gate), as check would.
#
#   examples/shards/merge.sh [WORK]      (WORK defaults to ./campaign; reports in WORK/reports/)
set -euo pipefail
work="${1:-campaign}"; sonnx="${SONNX_REF:-sonnx-ref}"
cd "$work"
"$sonnx" report --merge reports/check-*.json -o campaign.json     # refused if a piece is missing or twice
"$sonnx" report campaign.json -o campaign.html --gate             # 1: the campaign does not conform
