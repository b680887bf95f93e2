/**
 * Turning what the channels carry into attribute values: 64-bit ids as `0x…` hex strings (a JavaScript number
 * would round them), 'host:port' split for `server.address`/`server.port`, and the `error.type` of a failure.
 */
import type { Attributes } from '@opentelemetry/api';

import { ATTR } from './names.js';

/** A 64-bit id as the project writes it outside the process: `0x` and lowercase hex. */
export function hex(id: bigint): string {
  return `0x${id.toString(16)}`;
}

/**
 * Sets `server.address` and `server.port` from 'host:port' ('[::1]:2181' for IPv6). A server string without a
 * port is the address alone; anything else (undefined, empty) sets nothing.
 */
export function setServer(attributes: Attributes, server: unknown): void {
  if (typeof server !== 'string' || server === '') return;
  let host = server;
  let port: number | undefined;
  const bracket = server.startsWith('[') ? server.indexOf(']') : -1;
  if (bracket > 0) {
    host = server.slice(1, bracket);
    if (server[bracket + 1] === ':') port = Number(server.slice(bracket + 2));
  } else if (server.indexOf(':') === server.lastIndexOf(':') && server.includes(':')) {
    host = server.slice(0, server.indexOf(':'));
    port = Number(server.slice(server.indexOf(':') + 1));
  }
  attributes[ATTR.serverAddress] = host;
  if (port !== undefined && Number.isInteger(port) && port > 0 && port < 65_536) attributes[ATTR.serverPort] = port;
}

/**
 * `error.type` of a failure: the ZkError `code` when it has one ('NO_NODE', 'LOCK_TIMEOUT'), else the error's
 * class name, else OpenTelemetry's fallback '_OTHER'.
 */
export function errorType(code: unknown, error: unknown): string {
  if (typeof code === 'string' && code !== '') return code;
  if (typeof error === 'object' && error !== null) {
    const own = (error as { code?: unknown }).code;
    if (typeof own === 'string' && own !== '') return own;
    const name = (error as { name?: unknown }).name;
    if (typeof name === 'string' && name !== '') return name;
  }
  return '_OTHER';
}

/** The message a failed span's status carries. */
export function errorMessage(error: unknown): string | undefined {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : undefined;
}

/** A string field, or undefined for anything else (a publisher from another version may send other shapes). */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A finite number field, or undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

// A client sends request after request in one session: its id is converted once, not per request.
let lastId = 0n;
let lastHex = '';

/** A bigint id field as hex, or undefined when absent or 0n (no session yet). */
export function id(value: unknown): string | undefined {
  if (typeof value !== 'bigint' || value === 0n) return undefined;
  if (value !== lastId) {
    lastId = value;
    lastHex = hex(value);
  }
  return lastHex;
}
