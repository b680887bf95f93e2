/**
 * The code blocks of the user documentation (README.md, the package READMEs, docs/guides/*.md), as the tests
 * that run them see them. Every ```js and ```ts block is a whole program: docs.test.ts runs each one from the
 * sources, packaging.test.ts runs them again from the packed tarballs as an installed user would (ESM, CommonJS,
 * TypeScript under two module resolutions). Other fences (sh, text) are not programs and are left alone.
 *
 * A block ends with the output it promises: its trailing `// ` comment lines, one per printed line, where
 * `…` stands for any text within the line (a generated id, a timestamp) and a line that is only `⋮` for any
 * number of whole lines (an exporter's dump, whose length is not the example's point). A block that promises
 * nothing fails, so an example cannot silently stop doing what its prose says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface DocBlock {
  /** Repository-relative path of the markdown file. */
  readonly file: string;
  /** 1-based position among that file's runnable blocks. */
  readonly index: number;
  readonly lang: 'js' | 'ts';
  /** `require(` makes a block CommonJS; everything else is an ES module. */
  readonly module: 'esm' | 'cjs';
  readonly code: string;
  /** The promised output lines (`…` = anything). */
  readonly expected: readonly string[];
  /** A name for test titles and scratch files: `README.md#2`. */
  readonly name: string;
}

/** The documents whose blocks must run: the top README, the library packages' READMEs and every guide. */
export function documentFiles(): string[] {
  const guides = join(repoRoot, 'docs/guides');
  const files = ['README.md', 'packages/protocol/README.md', 'packages/recipes/README.md', 'packages/opentelemetry/README.md'];
  for (const name of readdirSync(guides).sort()) if (name.endsWith('.md')) files.push(relative(repoRoot, join(guides, name)));
  return files;
}

export function blocksOf(file: string): DocBlock[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const out: DocBlock[] = [];
  for (const match of text.matchAll(/^```(js|ts)\n([\s\S]*?)^```$/gm)) {
    const lang = match[1] as 'js' | 'ts';
    const code = match[2] ?? '';
    const index = out.length + 1;
    out.push({
      file,
      index,
      lang,
      module: /\brequire\(/.test(code) ? 'cjs' : 'esm',
      code,
      expected: promisedOutput(code),
      name: `${file}#${index}`,
    });
  }
  return out;
}

export function allBlocks(): DocBlock[] {
  return documentFiles().flatMap(blocksOf);
}

/** The `// ` comment lines after a block's last statement. */
export function promisedOutput(code: string): string[] {
  const lines = code.trimEnd().split('\n');
  let start = lines.length;
  while (start > 0 && lines[start - 1]?.startsWith('// ') === true) start--;
  return lines.slice(start).map((line) => line.slice(3));
}

/**
 * Whether printed lines keep a block's promise: line for line, each equal with `…` matching any text within
 * the line, and a `⋮` line matching any number of whole lines (none included).
 */
export function keepsPromise(printed: readonly string[], expected: readonly string[]): boolean {
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const source = expected
    .map((pattern) => (pattern === '⋮' ? '(?:[^\\n]*\\n)*?' : `${pattern.split('…').map(escape).join('[^\\n]*')}\\n`))
    .join('');
  return new RegExp(`^${source}$`).test(printed.map((line) => `${line}\n`).join(''));
}

/** A file name for a block's scratch copy: README.md#2 → README-md-2. */
export function scratchName(block: DocBlock): string {
  return block.name.replace(/[^A-Za-z0-9]+/g, '-');
}
