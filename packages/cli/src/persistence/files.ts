/**
 * Finding ZooKeeper's data files on disk and reading them in windows. A server's dataDir holds
 * `version-2/log.<zxid>` and `version-2/snapshot.<zxid>`, named after the first zxid a log holds and the last
 * zxid a snapshot covers; logs are preallocated (64 MiB by default), so they are read window by window and
 * never whole.
 */
import { open, readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';

import { CliError, ExitCode } from '../exit-codes.js';

export type DataFileKind = 'log' | 'snapshot';

export interface DataFile {
  path: string;
  kind: DataFileKind;
  /** From the name; undefined for a file named otherwise. */
  zxid: bigint | undefined;
}

const NAME = /^(log|snapshot)\.([0-9a-f]+)$/;

export function describeName(path: string): { kind: DataFileKind; zxid: bigint } | undefined {
  const match = NAME.exec(basename(path).replace(/\.(gz|snappy)$/, ''));
  if (match === null) return undefined;
  return { kind: match[1] as DataFileKind, zxid: BigInt(`0x${match[2] as string}`) };
}

function byZxid(a: DataFile, b: DataFile): number {
  if (a.zxid === b.zxid) return 0;
  if (a.zxid === undefined) return 1;
  if (b.zxid === undefined) return -1;
  return a.zxid < b.zxid ? -1 : 1;
}

/** The files of `kind` in a dataDir, its version-2 directory, or any directory holding them; oldest first. */
export async function filesInDirectory(dir: string, kind: DataFileKind): Promise<DataFile[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new CliError(ExitCode.NO_INPUT, `cannot read ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (names.includes('version-2')) return filesInDirectory(join(dir, 'version-2'), kind);
  const out: DataFile[] = [];
  for (const name of names) {
    const described = describeName(name);
    if (described?.kind === kind) out.push({ path: join(dir, name), kind, zxid: described.zxid });
  }
  return out.sort(byZxid);
}

/** Expands the command line's files and directories into data files of `kind`, oldest first per directory. */
export async function resolveDataFiles(inputs: readonly string[], kind: DataFileKind): Promise<DataFile[]> {
  const out: DataFile[] = [];
  for (const input of inputs) {
    let info;
    try {
      info = await stat(input);
    } catch (error) {
      throw new CliError(ExitCode.NO_INPUT, `cannot read ${input}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    if (info.isDirectory()) {
      const found = await filesInDirectory(input, kind);
      if (found.length === 0) throw new CliError(ExitCode.NO_INPUT, `no ${kind === 'log' ? 'transaction log (log.*)' : 'snapshot (snapshot.*)'} files in ${input}`);
      out.push(...found);
    } else {
      out.push({ path: input, kind, zxid: describeName(input)?.zxid });
    }
  }
  return out;
}

/** Reads up to `length` bytes at `offset` (fewer at the end of the file). */
export async function readWindow(path: string, offset: number, length: number): Promise<Uint8Array> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new CliError(ExitCode.NO_INPUT, `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    const buffer = new Uint8Array(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
