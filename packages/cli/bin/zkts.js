#!/usr/bin/env node
// The built CLI (packages/cli/dist, made by `pnpm -r build`). The sources run with `node --import tsx`.
import '../dist/main.js';
