/**
 * A stand-in page for the recipe panel's browser tests while the tree view has no node detail to host it: the
 * console's shell stylesheet and a bundle that renders RecipePanel alone for the path in the location hash
 * (`#/a/b`). Started as a console's `assetsDir`, so it talks to the real API with the real token and CSRF.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { build } from 'esbuild';

import { REPO_ROOT } from './cli.js';

const UI_SRC = join(REPO_ROOT, 'packages', 'cli', 'ui', 'src');

// No JSX here, so the entry needs no loader of its own; the imports it names are the page's real modules.
const ENTRY = `
import { h, render } from 'preact';
import { loadInfo } from './api.js';
import { RecipePanel } from './views/tree/recipe-panel.js';
const info = await loadInfo();
const path = decodeURIComponent(location.hash.replace(/^#/, '')) || '/';
render(h('div', { class: 'view' }, h('span', { 'data-testid': 'server' }, info.server), h(RecipePanel, { info, path, revision: 0 })), document.getElementById('app'));
`;

/** Builds the stand-in page into a fresh directory and returns it. */
export async function buildPanelPage(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'zkts-panel-page-'));
  await build({
    stdin: { contents: ENTRY, resolveDir: UI_SRC, sourcefile: 'panel-page.js', loader: 'js' },
    outfile: join(out, 'app.js'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'warning',
  });
  copyFileSync(join(UI_SRC, 'index.html'), join(out, 'index.html'));
  copyFileSync(join(UI_SRC, 'style.css'), join(out, 'style.css'));
  return out;
}
