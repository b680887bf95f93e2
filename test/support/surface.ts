/**
 * The public surface of a workspace package, as a diff-able text: every entry point in its package.json
 * `exports`, each exported name with its kind (`value` = exists at runtime, `type` = erased). The per-package
 * exports tests compare it with a list committed beside them, so adding, removing or demoting a name (a value
 * turned type-only, say) is a visible change in review instead of an accident of an `export *`.
 *
 * The names come from the TypeScript compiler API (the checker's view of the entry module, `export *` and
 * re-export chains followed). No vitest here, so a script can print a surface too; describe-surface.ts holds
 * the tests.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export type ExportKind = 'value' | 'type';

export interface ExportedName {
  readonly name: string;
  readonly kind: ExportKind;
}

export interface EntryPoint {
  /** The package.json `exports` key: '.', './codec'… */
  readonly subpath: string;
  /** What a user writes: 'zkts', '@zkts/protocol/codec'… */
  readonly specifier: string;
  /** Absolute path of the source file (the `zkts-source` condition). */
  readonly source: string;
}

interface PackageJson {
  name: string;
  /** Absent for a package that is only a bin (the CLI): nothing to import, nothing to pin. */
  exports?: Record<string, Record<string, string>>;
}

/** The entry points a package declares, in package.json order. */
export function entryPoints(packageDir: string): EntryPoint[] {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as PackageJson;
  return Object.entries(pkg.exports ?? {}).map(([subpath, conditions]) => {
    const source = conditions['zkts-source'];
    if (source === undefined) throw new Error(`${pkg.name} exports['${subpath}'] has no zkts-source condition`);
    return { subpath, specifier: subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`, source: resolve(packageDir, source) };
  });
}

/** Compiler options of the workspace (tsconfig.json at the root), so `@zkts/*` resolve as tsc resolves them. */
function workspaceOptions(): ts.CompilerOptions {
  const configPath = join(repoRoot, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  if (read.error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, repoRoot, undefined, configPath).options;
}

/**
 * A name is type-only when any alias on its way from the entry to its declaration says so (`export type { X }`,
 * `import type`), or when what it finally names has no value meaning (interface, type alias).
 */
function kindOf(checker: ts.TypeChecker, exported: ts.Symbol): ExportKind {
  let symbol: ts.Symbol | undefined = exported;
  const seen = new Set<ts.Symbol>();
  while (symbol !== undefined && symbol.flags & ts.SymbolFlags.Alias && !seen.has(symbol)) {
    seen.add(symbol);
    if ((symbol.declarations ?? []).some((d) => ts.isTypeOnlyImportOrExportDeclaration(d))) return 'type';
    symbol = checker.getImmediateAliasedSymbol(symbol);
  }
  if (symbol === undefined) throw new Error(`cannot resolve export ${exported.name}`);
  return symbol.flags & ts.SymbolFlags.Value ? 'value' : 'type';
}

/**
 * Names that reach a module only through an `export type * from` somewhere down its `export *` chain. The
 * checker hands those back as the original declarations (a class stays a class), so kindOf cannot see it.
 */
function starTypeOnly(checker: ts.TypeChecker, module: ts.Symbol, seen = new Set<ts.SourceFile>()): Set<string> {
  const out = new Set<string>();
  const file = module.declarations?.find(ts.isSourceFile);
  if (file === undefined || seen.has(file)) return out;
  seen.add(file);
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || statement.exportClause !== undefined || statement.moduleSpecifier === undefined) continue;
    const target = checker.getSymbolAtLocation(statement.moduleSpecifier);
    if (target === undefined) continue;
    const names = statement.isTypeOnly ? checker.getExportsOfModule(target).map((s) => s.name) : starTypeOnly(checker, target, seen);
    for (const name of names) out.add(name);
  }
  // What the module declares or exports by name itself does not come through a star.
  for (const s of checker.getExportsOfModule(module)) if (s.declarations?.some((d) => d.getSourceFile() === file)) out.delete(s.name);
  return out;
}

/** Every entry file's exports, sorted by name (code-unit order, the same in every locale). One program for all. */
export function exportedNames(sources: readonly string[]): Map<string, ExportedName[]> {
  const program = ts.createProgram({ rootNames: [...sources], options: { ...workspaceOptions(), noEmit: true } });
  const checker = program.getTypeChecker();
  const out = new Map<string, ExportedName[]>();
  for (const source of sources) {
    const file = program.getSourceFile(source);
    if (file === undefined) throw new Error(`${source} is not part of the program`);
    // A file with no import or export is a script, not a module: it has no surface to list.
    const module = checker.getSymbolAtLocation(file);
    const viaTypeStar = module === undefined ? new Set<string>() : starTypeOnly(checker, module);
    const names = (module === undefined ? [] : checker.getExportsOfModule(module)).map(
      (s): ExportedName => ({ name: s.name, kind: viaTypeStar.has(s.name) ? 'type' : kindOf(checker, s) }),
    );
    out.set(source, names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
  }
  return out;
}

/** The committed form: a header with the counts, then `kind name` per line. */
export function formatSurface(entry: EntryPoint, names: readonly ExportedName[]): string {
  const values = names.filter((n) => n.kind === 'value').length;
  const header = [
    `# ${entry.specifier} (${relative(repoRoot, entry.source)}): ${values} values, ${names.length - values} types.`,
    '# Pinned by the package exports test; after a deliberate change: npx vitest run --project unit -u',
  ];
  return [...header, ...names.map((n) => `${n.kind} ${n.name}`)].join('\n') + '\n';
}
