#!/usr/bin/env bash
# The whole test suite, as the README gives it: set-up, typecheck, lint, then every vitest project (unit and
# integration against real ZooKeeper servers). Ends with one plain line: `N passed, N failed[, N skipped]`.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1

status=0
# Typecheck and lint are independent and each keeps about one core busy: side by side they take the longer one's time.
pnpm --silent typecheck &
typecheck=$!
pnpm --silent lint &
lint=$!
wait "$typecheck" || status=1
wait "$lint" || status=1

mkdir -p .zkts-tmp
rm -f .zkts-tmp/vitest.json
npx vitest run --reporter=default --reporter=json --outputFile.json=.zkts-tmp/vitest.json "$@" || status=1
node scripts/summary.mjs .zkts-tmp/vitest.json || status=1
exit $status
