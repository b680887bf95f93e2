/**
 * The write routes' request bodies checked field by field before anything reaches ZooKeeper: a malformed body
 * is answered 400 BAD_REQUEST with the field named, so the page (or a script) learns what to fix instead of
 * getting the client's argument error or, worse, a half-done write.
 */
import { type ACL, type CreateMode, ZkError, validatePath } from '@zkts/protocol';

import { badRequest, type ConsoleApiError } from '../api-error.js';
import type { AclEntry, CreateModeName } from '../api-types.js';

/** The console's mode names and the client's. */
export const CREATE_MODES: Readonly<Record<CreateModeName, CreateMode>> = {
  persistent: 'persistent',
  ephemeral: 'ephemeral',
  'persistent-sequential': 'persistent-sequential',
  'ephemeral-sequential': 'ephemeral-sequential',
  container: 'container',
  'persistent-with-ttl': 'persistent-ttl',
  'persistent-sequential-with-ttl': 'persistent-sequential-ttl',
};

/** ZooKeeper's permission bits by the `cdrwa` letter the API writes them as. */
const PERM_BITS: Readonly<Record<string, number>> = { c: 4, d: 8, r: 1, w: 2, a: 16 };

/** ZooKeeper keeps a TTL in 40 bits of the ephemeral owner (EphemeralType.TTL). */
const MAX_TTL = 2 ** 40 - 1;

export interface CreateCall {
  readonly path: string;
  readonly modeName: CreateModeName;
  readonly data: Buffer;
  readonly mode: CreateMode;
  readonly ttl: number | undefined;
  readonly acl: ACL[] | undefined;
}
export interface SetCall {
  readonly path: string;
  readonly data: Buffer;
  readonly version: number;
}
export interface DeleteCall {
  readonly path: string;
  readonly version: number;
  readonly recursive: boolean;
  readonly confirmCount: number | undefined;
}
export interface AclCall {
  readonly path: string;
  readonly acl: ACL[];
  readonly aversion: number;
}

type Body = Readonly<Record<string, unknown>>;

function object(body: unknown): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('the body must be a JSON object');
  return body as Body;
}

function field(message: string, name: string): ConsoleApiError {
  return badRequest(`${name}: ${message}`);
}

export function pathField(value: unknown, name = 'path', sequential = false): string {
  if (typeof value !== 'string') throw field('must be a string', name);
  try {
    validatePath(value, { sequential });
  } catch (error) {
    throw field(error instanceof ZkError ? error.message.replace(/^invalid path: /, '') : String(error), name);
  }
  return value;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function dataField(value: unknown, name = 'data'): Buffer {
  if (value === undefined) return Buffer.alloc(0);
  if (typeof value !== 'string' || !BASE64.test(value)) throw field('must be base64 text', name);
  return Buffer.from(value, 'base64');
}

/** A version: -1 (any) or a non-negative 32-bit integer. */
function versionField(value: unknown, name: string, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < -1 || value > 0x7fffffff) {
    throw field('must be an integer version (-1: any)', name);
  }
  return value;
}

function permsField(value: unknown, name: string): number {
  if (typeof value !== 'string') throw field('must be letters of cdrwa', name);
  let perms = 0;
  for (const letter of value) {
    const bit = Object.hasOwn(PERM_BITS, letter) ? PERM_BITS[letter] : undefined;
    if (bit === undefined) throw field(`unknown permission ${JSON.stringify(letter)} (use letters of cdrwa)`, name);
    perms |= bit;
  }
  return perms;
}

export function aclField(value: unknown, name = 'acl'): ACL[] {
  if (!Array.isArray(value) || value.length === 0) throw field('must be a non-empty list of {scheme, id, perms}', name);
  return value.map((raw: unknown, i) => {
    const entry = object(raw) as Partial<Record<keyof AclEntry, unknown>>;
    const at = `${name}[${i}]`;
    if (typeof entry.scheme !== 'string' || entry.scheme === '') throw field('must be a scheme name', `${at}.scheme`);
    if (typeof entry.id !== 'string') throw field('must be a string', `${at}.id`);
    return { perms: permsField(entry.perms, `${at}.perms`), id: { scheme: entry.scheme, id: entry.id } };
  });
}

export function createCall(body: unknown): CreateCall {
  const b = object(body);
  const name = b['mode'] ?? 'persistent';
  if (typeof name !== 'string' || !Object.hasOwn(CREATE_MODES, name)) {
    throw field(`must be one of ${Object.keys(CREATE_MODES).join(', ')}`, 'mode');
  }
  const mode = CREATE_MODES[name as CreateModeName];
  const withTtl = mode === 'persistent-ttl' || mode === 'persistent-sequential-ttl';
  const rawTtl = b['ttl'];
  let ttl: number | undefined;
  if (withTtl) {
    if (typeof rawTtl !== 'number' || !Number.isInteger(rawTtl) || rawTtl <= 0 || rawTtl > MAX_TTL) {
      throw field(`mode ${name} needs a whole number of ms in 1..${MAX_TTL}`, 'ttl');
    }
    ttl = rawTtl;
  } else if (rawTtl !== undefined && rawTtl !== null) {
    throw field(`only the TTL modes take a ttl, not ${name}`, 'ttl');
  }
  return {
    path: pathField(b['path'], 'path', mode.includes('sequential')),
    modeName: name as CreateModeName,
    data: dataField(b['data']),
    mode,
    ttl,
    acl: b['acl'] === undefined || b['acl'] === null ? undefined : aclField(b['acl']),
  };
}

export function setCall(body: unknown): SetCall {
  const b = object(body);
  return { path: pathField(b['path']), data: dataField(b['data']), version: versionField(b['version'], 'version') };
}

export function deleteCall(body: unknown): DeleteCall {
  const b = object(body);
  const path = pathField(b['path']);
  if (path === '/') throw field('the root node cannot be deleted', 'path');
  const recursive = b['recursive'] ?? false;
  if (typeof recursive !== 'boolean') throw field('must be true or false', 'recursive');
  const confirm = b['confirmCount'];
  if (recursive) {
    if (typeof confirm !== 'number' || !Number.isInteger(confirm) || confirm < 1) {
      throw field('a recursive delete needs the node count the user confirmed (GET /api/count)', 'confirmCount');
    }
    if (b['version'] !== undefined && b['version'] !== -1) throw field('a recursive delete takes no version', 'version');
  }
  return { path, version: versionField(b['version'], 'version', -1), recursive, confirmCount: recursive ? (confirm as number) : undefined };
}

export function aclCall(body: unknown): AclCall {
  const b = object(body);
  return { path: pathField(b['path']), acl: aclField(b['acl']), aversion: versionField(b['aversion'], 'aversion') };
}
