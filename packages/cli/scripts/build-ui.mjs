// Builds the console's page into dist/console-ui/: one minified bundle (the page's code and Preact, no CDN at
// run time), the HTML shell and the stylesheet. Runs as part of the package build.
import { build } from 'esbuild';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { fileURLToPath, URL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}dist/console-ui/`;
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  entryPoints: [`${root}ui/src/main.tsx`],
  outfile: `${out}app.js`,
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'linked',
  logLevel: 'warning',
});
await copyFile(`${root}ui/src/index.html`, `${out}index.html`);
await copyFile(`${root}ui/src/style.css`, `${out}style.css`);
// The bundle includes Preact (MIT): its licence travels with it.
await copyFile(fileURLToPath(new URL('../node_modules/preact/LICENSE', import.meta.url)), `${out}PREACT-LICENSE.txt`);
