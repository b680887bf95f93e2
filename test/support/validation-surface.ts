/**
 * What a validation table must cover, read from the compiler's view of a package's sources: the keys of an
 * exported options type, the exported functions and classes, the public methods of a class, and the methods of
 * an interface with their parameters. A new option, export, method or parameter without a table row then fails
 * the table's coverage test. Re-exported by validation.ts, which is what tables import.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// ---- What a table must cover, from the compiler's view of the sources -------------------------------------

const programs = new Map<string, { program: ts.Program; file: ts.SourceFile }>();

/** '@zkts/protocol' → packages/protocol/src/index.ts, '@zkts/protocol/codec' → …/src/codec.ts; a path as is. */
function entryFile(packageEntry: string): string {
  const m = /^@zkts\/([a-z-]+)(?:\/([a-z-]+))?$/.exec(packageEntry);
  if (m === null) return resolve(repoRoot, packageEntry);
  return join(repoRoot, 'packages', m[1] ?? '', 'src', `${m[2] ?? 'index'}.ts`);
}

function workspaceOptions(): ts.CompilerOptions {
  const configPath = join(repoRoot, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  if (read.error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(read.config, ts.sys, repoRoot, undefined, configPath).options;
}

function programFor(packageEntry: string): { checker: ts.TypeChecker; exports: ts.Symbol[] } {
  const source = entryFile(packageEntry);
  let entry = programs.get(source);
  if (entry === undefined) {
    const program = ts.createProgram({ rootNames: [source], options: { ...workspaceOptions(), noEmit: true } });
    const file = program.getSourceFile(source);
    if (file === undefined) throw new Error(`${source} is not part of the program`);
    entry = { program, file };
    programs.set(source, entry);
  }
  const checker = entry.program.getTypeChecker();
  const module = checker.getSymbolAtLocation(entry.file);
  return { checker, exports: module === undefined ? [] : checker.getExportsOfModule(module) };
}

function exported(packageEntry: string, name: string): { checker: ts.TypeChecker; symbol: ts.Symbol } {
  const { checker, exports } = programFor(packageEntry);
  const found = exports.find((s) => s.name === name);
  if (found === undefined) throw new Error(`${packageEntry} exports no ${name}`);
  const symbol = found.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(found) : found;
  return { checker, symbol };
}

/**
 * The property names of an exported interface or type alias (inherited and intersected members included),
 * sorted. Throws when the entry exports no such type.
 */
export function optionKeysOf(packageEntry: string, typeName: string): string[] {
  const { checker, symbol } = exported(packageEntry, typeName);
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  const apparent = type.isUnion() ? type.types : [type];
  const names = new Set<string>();
  for (const t of apparent) for (const p of checker.getPropertiesOfType(t)) names.add(p.name);
  return [...names].sort();
}

export interface ExportedCallable {
  readonly name: string;
  /** 'class' when it can be constructed, 'function' when only called. */
  readonly kind: 'class' | 'function';
}

/** Exported values that are functions or classes (runtime names only; types are left out), sorted by name. */
export function exportedCallables(packageEntry: string): ExportedCallable[] {
  const { checker, exports } = programFor(packageEntry);
  const out: ExportedCallable[] = [];
  for (const s of exports) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    if (!(target.flags & ts.SymbolFlags.Value)) continue;
    const declaration = target.valueDeclaration ?? target.declarations?.[0];
    if (declaration === undefined) continue;
    const type = checker.getTypeOfSymbolAtLocation(target, declaration);
    if (type.getConstructSignatures().length > 0) out.push({ name: s.name, kind: 'class' });
    else if (type.getCallSignatures().length > 0) out.push({ name: s.name, kind: 'function' });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The public instance methods (and static methods, as `static name`) of an exported class, sorted; private,
 * protected and #private members, accessors and fields without a call signature are left out. Inherited
 * methods are included except those of Object/EventEmitter-like bases declared outside the workspace.
 */
/** Declared in the workspace (not by a library's or the runtime's types: Object, EventEmitter, AsyncDisposable). */
const ours = (p: ts.Symbol): boolean => (p.declarations ?? []).some((d) => !d.getSourceFile().fileName.includes('/node_modules/'));
const isPublic = (p: ts.Symbol): boolean =>
  !(p.declarations ?? []).some((d) => (ts.getCombinedModifierFlags(d) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0 || (ts.isClassElement(d) && d.name !== undefined && ts.isPrivateIdentifier(d.name)));

export function publicMethodsOf(packageEntry: string, className: string): string[] {
  const { checker, symbol } = exported(packageEntry, className);
  const instance = checker.getDeclaredTypeOfSymbol(symbol);
  const names: string[] = [];
  const callable = (p: ts.Symbol, at: ts.Node): boolean => (p.flags & ts.SymbolFlags.Method) !== 0 && checker.getTypeOfSymbolAtLocation(p, at).getCallSignatures().length > 0;
  const at = symbol.valueDeclaration ?? symbol.declarations?.[0];
  if (at === undefined) throw new Error(`${className} has no declaration`);
  for (const p of checker.getPropertiesOfType(instance)) if (ours(p) && isPublic(p) && callable(p, at) && !p.name.startsWith('__')) names.push(p.name);
  const statics = checker.getTypeOfSymbolAtLocation(symbol, at);
  for (const p of checker.getPropertiesOfType(statics)) if (p.name !== 'prototype' && ours(p) && isPublic(p) && callable(p, at)) names.push(`static ${p.name}`);
  return names.sort();
}

/** A method of an interface (or of a class's public instance side) and the names of its parameters. */
export interface MethodShape {
  readonly name: string;
  /** Parameter names over all its overloads, in order of first appearance (a rest parameter by its name). */
  readonly parameters: readonly string[];
}

/**
 * The methods of an exported interface or type alias, or of an exported class's public instance side (members
 * whose type has a call signature, inherited ones included, library-declared and symbol-named ones left out),
 * with their parameter names, sorted by name. A method that takes no input has `parameters: []`.
 */
export function interfaceMethodsOf(packageEntry: string, typeName: string): MethodShape[] {
  const { checker, symbol } = exported(packageEntry, typeName);
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  const at = symbol.declarations?.[0];
  if (at === undefined) throw new Error(`${typeName} has no declaration`);
  const out: MethodShape[] = [];
  for (const p of checker.getPropertiesOfType(type)) {
    if (!ours(p) || !isPublic(p) || p.name.startsWith('__')) continue;
    const signatures = checker.getTypeOfSymbolAtLocation(p, at).getCallSignatures();
    if (signatures.length === 0) continue;
    const parameters = [...new Set(signatures.flatMap((sig) => sig.getParameters().map((q) => q.name)))];
    out.push({ name: p.name, parameters });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
