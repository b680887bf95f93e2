/**
 * The code blocks of the user documentation (README.md, the package READMEs, docs/guides/*.md, and the
 * `@example`s of the doc comments that make the API reference), as the tests that run them see them. Every
 * ```js and ```ts block is a whole program: readme.test.ts runs each one from the sources, packaging.test.ts runs
 * them again from the packed tarballs as an installed user would (ESM, CommonJS, TypeScript with the README's
 * tsconfig and under two module resolutions). Other fences (sh, json, text) are not programs and are left alone.
 *
 * A block ends with the output it promises: its trailing `// ` comment lines, one per printed line, where
 * `…` stands for any text within the line (a generated id, a timestamp) and a line that is only `⋮` for any
 * number of whole lines (an exporter's dump, whose length is not the example's point). A block that promises
 * nothing fails, so an example cannot silently stop doing what its prose says.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
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
  /** A name for test titles and scratch files: `README.md#2`, `packages/recipes/src/locks/mutex.ts#Mutex`. */
  readonly name: string;
  /** For an `@example` of a doc comment: the name of the declaration it documents. */
  readonly symbol?: string;
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
  return [...documentFiles().flatMap(blocksOf), ...exampleSources().flatMap(examplesOf)];
}

/**
 * The main classes and functions of the API: each has an `@example` in its doc comment, which the API reference
 * shows and the suite runs (readme.test.ts checks both ends, typedoc.test.ts that TypeDoc renders them).
 */
export const MAIN_API = [
  'connect', 'createClient', 'ZkClient',
  'Mutex', 'ReadWriteLock', 'Semaphore', 'LeaderElection', 'LeaderSelector', 'TreeCache',
  'Queue', 'LockingQueue', 'DistributedQueue', 'DistributedPriorityQueue', 'DistributedDelayQueue', 'DistributedIdQueue',
  'startServer', 'startZooKeeper', 'EmbeddedZooKeeperServer',
] as const;

/** The packages whose doc comments make the API reference (the CLI is a command, not an API). */
const API_PACKAGES = ['protocol', 'recipes', 'server', 'testkit', 'sasl-kerberos'];

/** The name declared right after a doc comment: an exported class, function or constant, or a member. */
const DECLARATION = /^\s*(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:static\s+)?(?:async\s+)?(?:readonly\s+)?(?:class\s+|function\s+|const\s+|interface\s+|type\s+|get\s+)?([A-Za-z0-9_$]+)/;

/** Every source file of the API packages, repository-relative. */
export function exampleSources(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(repoRoot, dir))
      .sort()
      .flatMap((name) => {
        const path = `${dir}/${name}`;
        if (statSync(join(repoRoot, path)).isDirectory()) return walk(path);
        return name.endsWith('.ts') ? [path] : [];
      });
  return API_PACKAGES.flatMap((pkg) => walk(`packages/${pkg}/src`));
}

/**
 * The ```ts blocks under an `@example` tag in the doc comments of `file` (or in the file an `{@include}` there
 * names), each named after the declaration the comment documents. The comment's ` * ` margin is taken off;
 * indentation past it is kept.
 */
export function examplesOf(file: string): DocBlock[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const out: DocBlock[] = [];
  for (const comment of text.matchAll(/\/\*\*((?:[^*]|\*(?!\/))*)\*\//g)) {
    const body = (comment[1] ?? '').split('\n').map((line) => line.replace(/^\s*\* ?/, '')).join('\n');
    const tag = body.indexOf('@example');
    if (tag < 0) continue;
    const after = text.slice(comment.index + comment[0].length);
    const symbol = DECLARATION.exec(after)?.[1] ?? '?';
    // `@example {@include ./file.md}`: the example is in that file (TypeDoc inlines it the same way).
    const example = body.slice(tag).replace(/\{@include\s+([^}\s]+)\}/g, (_, rel: string) => `\n${readFileSync(join(repoRoot, dirname(file), rel), 'utf8')}`);
    for (const match of example.matchAll(/^```ts\n([\s\S]*?)^```$/gm)) {
      const code = match[1] ?? '';
      const index = out.length + 1;
      out.push({ file, index, lang: 'ts', module: 'esm', code, expected: promisedOutput(code), name: `${file}#${symbol}-${index}`, symbol });
    }
  }
  return out;
}

/**
 * The one ```<lang> block of `file` that contains `marker`, as written: the README's install commands and its
 * tsconfig.json are run and used verbatim by packaging.test.ts, so what a reader copies is what was tested.
 */
export function fencedBlock(file: string, lang: string, marker: string): string {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const found = [...text.matchAll(/^```([a-z]*)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === lang && (m[2] ?? '').includes(marker));
  if (found.length !== 1) throw new Error(`${file}: expected one \`\`\`${lang} block with ${JSON.stringify(marker)}, found ${found.length}`);
  return found[0]?.[2] ?? '';
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
