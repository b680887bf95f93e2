#!/usr/bin/env node
// The built CLI (packages/cli/dist, made by `pnpm -r build`). The sources run with `node --import tsx`.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

// `pnpm zkts …` in this repository (the root package.json's `zkts` script) runs us from the repository root;
// relative paths (`decode ./zk.pcap`, ZKTS_HISTORY) must mean the directory the user typed the command in.
const env = process.env;
if (env.npm_lifecycle_event === 'zkts' && env.npm_package_name === 'zkts-workspace' && env.INIT_CWD) process.chdir(env.INIT_CWD);

if (!existsSync(new URL('../dist/main.js', import.meta.url))) {
  process.stderr.write('zkts: the CLI is not built yet: run `pnpm -r build` in the repository (or `bash scripts/setup.sh`)\n');
  process.exit(1);
}
await import('../dist/main.js');
