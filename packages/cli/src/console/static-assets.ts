/**
 * The page: the bundle `scripts/build-ui.mjs` writes to dist/console-ui/ at package build, read once at start
 * and served from memory. Only those files exist (no path from the URL ever reaches the file system), each
 * with a Content-Security-Policy that lets no script run but the bundle's own: node names and data are
 * rendered as text by the page, and even a rendering mistake cannot run an injected script or load a remote
 * resource (no CDN at run time either).
 */
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset {
  readonly type: string;
  readonly bytes: Buffer;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
};

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** src/console/ and dist/console/ both sit two levels under the package root. */
export function defaultAssetsDir(): string {
  return fileURLToPath(new URL('../../dist/console-ui/', import.meta.url));
}

/** URL path (`/`, `/app.js`) → asset. A missing build is an empty map; the server then says how to build. */
export async function loadAssets(dir: string): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return assets;
  }
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (type === undefined) continue;
    const bytes = await readFile(join(dir, name));
    assets.set(`/${name}`, { type, bytes });
    if (name === 'index.html') assets.set('/', { type, bytes });
  }
  return assets;
}
