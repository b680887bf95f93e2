/**
 * What packaging.test.ts does to the packages, as a user would: pack each with pnpm (workspace: ranges become
 * versions), check the tarballs with publint and attw, and install them into a scratch project outside the
 * repository with npm, offline, by the README's own commands, so nothing of the workspace leaks into what the
 * examples import. The few third-party packages the examples import besides ours (OpenTelemetry's API and SDK)
 * are packed from the workspace's own installed copies, with their dependencies, and installed from those
 * tarballs the same way.
 */
import { execFile, type ExecFileOptions } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { repoRoot } from './doc-blocks.js';

/**
 * Every package we ship, as the directory names under packages/: all of them, since each is a dependency of
 * another (the CLI's optional @zkts/sasl-kerberos included) and a name we do not pack would be looked up on
 * the registry by whoever installs the tarballs.
 */
export const PACKAGES = ['protocol', 'server', 'recipes', 'testkit', 'opentelemetry', 'sasl-kerberos', 'cli'] as const;
export type PackageDir = (typeof PACKAGES)[number];
/** The five with importable entry points checked here; the CLI is a bin only, sasl-kerberos has its own test. */
export const LIBRARIES = ['protocol', 'server', 'recipes', 'testkit', 'opentelemetry'] as const;
/**
 * The registry packages our tarballs name, on purpose: sasl-kerberos's native `kerberos` module, the test kit's
 * optional peer `testcontainers` and the OpenTelemetry API that @zkts/opentelemetry takes as a peer. Any other
 * name a tarball depends on must be a tarball we ship.
 */
export const THIRD_PARTY_DEPENDENCIES = ['kerberos', 'testcontainers', '@opentelemetry/api'] as const;

/** Third-party packages the documentation's examples import: the root's devDependencies of the same names. */
export const EXAMPLE_DEPENDENCIES = ['@opentelemetry/api', '@opentelemetry/sdk-trace', '@opentelemetry/sdk-metrics', '@opentelemetry/context-async-hooks'] as const;

/** The dependency fields npm resolves. */
const DEPENDENCY_FIELDS = ['dependencies', 'optionalDependencies', 'peerDependencies'] as const;

/** A packed manifest's dependencies, every field together: name → range. */
export function dependenciesOf(manifest: Record<string, unknown>): [string, string][] {
  return DEPENDENCY_FIELDS.flatMap((field) => Object.entries((manifest[field] ?? {}) as Record<string, string>));
}

const bin = (name: string): string => join(repoRoot, 'node_modules/.bin', name);
export const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end; never rejects, so a failing tool's output can be shown in the assertion. */
export function run(file: string, args: readonly string[], options: ExecFileOptions = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(file, args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, timeout: 60_000, ...options }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** The newest modification time of any file under `dir`. */
function newest(dir: string): number {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    max = Math.max(max, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return max;
}

/**
 * Packs what is built: `pnpm -r run build` (scripts/setup.sh, so `npm test`) comes first. Building here would
 * rewrite dist/ under other test files that run the CLI from it, so a stale build fails with the fix instead.
 */
export function assertBuilt(): void {
  for (const pkg of PACKAGES) {
    const dir = join(repoRoot, 'packages', pkg);
    const built = statSync(join(dir, 'dist/index.js'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (built < newest(join(dir, 'src'))) throw new Error(`packages/${pkg}/dist is older than its src: run \`pnpm -r run build\` first`);
  }
}

/** `pnpm pack` of each package into `dest`; returns tarball paths by package. prepack (a build) is skipped. */
export async function packAll(dest: string): Promise<Record<PackageDir, string>> {
  mkdirSync(dest, { recursive: true });
  const out: Partial<Record<PackageDir, string>> = {};
  await Promise.all(
    PACKAGES.map(async (pkg) => {
      const res = await run('pnpm', ['pack', '--pack-destination', dest], {
        cwd: join(repoRoot, 'packages', pkg),
        env: { ...process.env, npm_config_ignore_scripts: 'true' },
      });
      const tarball = res.stdout.trim().split('\n').at(-1) ?? '';
      if (res.code !== 0 || !tarball.endsWith('.tgz')) throw new Error(`pnpm pack of ${pkg} failed:\n${res.stderr}${res.stdout}`);
      out[pkg] = tarball;
    }),
  );
  return out as Record<PackageDir, string>;
}

/** The package.json inside a tarball, as npm will read it. */
export async function packedManifest(tarball: string): Promise<Record<string, unknown>> {
  const res = await run('tar', ['-xzOf', tarball, 'package/package.json']);
  if (res.code !== 0) throw new Error(`no package.json in ${tarball}:\n${res.stderr}`);
  return JSON.parse(res.stdout) as Record<string, unknown>;
}

/**
 * npm as the README's commands meet it, but offline: the tarballs have no registry dependencies but the
 * optional ones (THIRD_PARTY_DEPENDENCIES), so a request to the network would itself be a packaging bug. No
 * install scripts (nothing of ours has one; kerberos would try to build).
 */
export const offlineNpm: NodeJS.ProcessEnv = {
  ...process.env,
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_ignore_scripts: 'true',
};

/** Runs shell lines as they stand in the README (bash, stopping at the first failure) in `cwd`. */
export function runShell(lines: string, cwd: string): Promise<Run> {
  return run('bash', ['-euo', 'pipefail', '-c', lines], { cwd, env: offlineNpm, timeout: 120_000 });
}

/** `@types/node` linked in from the workspace, as a TypeScript user would have installed it. */
export function linkNodeTypes(project: string): void {
  mkdirSync(join(project, 'node_modules/@types'), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules/@types/node'), join(project, 'node_modules/@types/node'), 'dir');
}

/** Where Node would find `name` from `from` (a package directory): the nearest node_modules/<name> above it. */
function installedDir(name: string, from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) throw new Error(`${name} is not installed where ${from} could import it`);
  }
}

/**
 * `npm pack` of `names` as installed in the workspace (the root's copies) and of everything they depend on,
 * into `dest`: a user's registry install, made offline from what the workspace already holds. Returns the
 * tarball paths.
 */
export async function packInstalled(names: readonly string[], dest: string): Promise<string[]> {
  mkdirSync(dest, { recursive: true });
  const dirs = new Map<string, string>();
  const visit = (name: string, from: string): void => {
    const dir = installedDir(name, from);
    if (dirs.has(dir)) return;
    dirs.set(dir, name);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(dep, dir);
  };
  for (const name of names) visit(name, repoRoot);
  const tarballs: string[] = [];
  for (const [dir, name] of dirs) {
    // pnpm's store hard-links identical files, and tar would record a second link to one as a link entry that
    // npm's install does not restore: pack a plain copy instead.
    const copy = join(dest, 'copies', name);
    cpSync(dir, copy, { recursive: true, dereference: true });
    const res = await run('npm', ['pack', copy, '--pack-destination', dest, '--ignore-scripts', '--offline', '--json']);
    const file = res.code === 0 ? (JSON.parse(res.stdout) as { filename: string }[])[0]?.filename : undefined;
    if (file === undefined) throw new Error(`npm pack of ${name} (${dir}) failed:\n${res.stderr}${res.stdout}`);
    tarballs.push(join(dest, file));
  }
  return tarballs;
}

export function publint(tarball: string): Promise<Run> {
  return run(bin('publint'), ['--strict', tarball]);
}

/** attw with the ESM-only profile: node10 and node16-from-CJS resolution are out of the contract (see README). */
export function attw(tarball: string): Promise<Run> {
  return run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii']);
}

/** A tsconfig for one consumer style; strict, and with skipLibCheck off so our .d.ts files are checked too. */
export function writeTsconfig(project: string, name: string, resolution: 'node16' | 'bundler'): string {
  const compilerOptions = {
    target: 'es2022',
    module: resolution === 'node16' ? 'node16' : 'esnext',
    moduleResolution: resolution,
    strict: true,
    skipLibCheck: false,
    types: ['node'],
    rootDir: 'src',
    outDir: `out-${name}`,
  };
  const file = join(project, `tsconfig.${name}.json`);
  writeFileSync(file, `${JSON.stringify({ compilerOptions, include: ['src'] }, null, 2)}\n`);
  return file;
}
