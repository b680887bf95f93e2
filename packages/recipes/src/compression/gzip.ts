/**
 * Node data compressed as Curator's GzipCompressionProvider (Curator's default CompressionProvider, used by
 * `create().compressed()` / `getData().decompressed()`) writes and reads it: one standard gzip member.
 *
 * Writing: Curator's provider emits the 10-byte header 1f 8b 08 00 00000000 00 00 (deflate, no flags, no mtime,
 * XFL 0, OS 0) then a default-level deflate stream and the CRC32/ISIZE trailer. node:zlib's gzip differs only in
 * the OS byte (3, Unix), which no reader checks; we set it to 0 anyway so the bytes we store are the bytes Curator
 * would have stored for the same deflate stream. Reading accepts any valid gzip (flags, names, several members),
 * as Curator's reader does for what it writes.
 *
 * Reading is bounded: a node holds at most jute.maxbuffer (1 MiB by default) of compressed bytes, but a deflate
 * stream expands up to ~1000x, so a hostile node could otherwise make a reader allocate a gigabyte. The output is
 * capped at `maxBytes` (default 16 MiB) and anything larger is refused with DecompressedTooLargeError before more
 * than the cap is allocated; data that is not gzip is refused with CompressedDataError.
 */
import { gunzipSync, gzipSync } from 'node:zlib';

import { CompressedDataError, DecompressedTooLargeError } from '../errors.js';
import { checkArg, checkOptions, rules, type Data, type OptionRules } from '../internal/index.js';

/** Options of decompressLikeCurator and gunzipDecoder. */
export interface DecompressOptions {
  /** The most bytes decompressed data may have; more is a DecompressedTooLargeError (default 16 MiB). */
  maxBytes?: number;
}

/** The decompressed size refused by default: well above any sane node, far below what a bomb would ask. */
export const DEFAULT_MAX_DECOMPRESSED_BYTES = 16 * 1024 * 1024;

/** The header fields node:zlib sets differently from Curator's provider: byte 8 XFL and byte 9 OS. */
const XFL = 8;
const OS = 9;

const OPTION_RULES: OptionRules<DecompressOptions> = { maxBytes: rules.integer(1, 2 ** 31 - 1) };

/** Compresses `data` (a string as UTF-8) as Curator's GzipCompressionProvider does. */
export function compressLikeCurator(data: Data): Uint8Array {
  checkArg('compressLikeCurator', 'data', data, rules.data);
  const out = new Uint8Array(gzipSync(typeof data === 'string' ? new TextEncoder().encode(data) : data));
  out[XFL] = 0;
  out[OS] = 0;
  return out;
}

/** Decompresses gzip data (Curator's or any other writer's), refusing output past `maxBytes`. */
export function decompressLikeCurator(data: Uint8Array, options: DecompressOptions = {}): Uint8Array {
  checkArg('decompressLikeCurator', 'data', data, rules.bytes);
  checkOptions('decompressLikeCurator', options, OPTION_RULES);
  return gunzip(data, options.maxBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES);
}

/**
 * A decoder for the caches' `data` option (and any `(bytes, path)` reader): each node's data gunzipped with the
 * limit. A node that is not gzip or too large fails that node's decode (the caches report CacheDecodeError with
 * this error as its cause) and leaves the other nodes alone. A node without data (a directory made by mkdirp or
 * Curator's creatingParentsIfNeeded) decodes as empty bytes, so a cache over a tree of compressed leaves does not
 * report every directory; decompressLikeCurator refuses empty data, as Curator's provider does.
 */
export function gunzipDecoder(options: DecompressOptions = {}): (bytes: Uint8Array, path: string) => Uint8Array {
  checkOptions('gunzipDecoder', options, OPTION_RULES);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES;
  return (bytes) => (bytes.length === 0 ? new Uint8Array(0) : gunzip(bytes, maxBytes));
}

function gunzip(data: Uint8Array, maxBytes: number): Uint8Array {
  try {
    return new Uint8Array(gunzipSync(data, { maxOutputLength: maxBytes }));
  } catch (e) {
    // node:zlib stops inflating at maxOutputLength and says so with ERR_BUFFER_TOO_LARGE (a RangeError).
    if ((e as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw new DecompressedTooLargeError(maxBytes, { cause: e });
    throw new CompressedDataError(`not gzip data: ${(e as Error).message}`, { cause: e });
  }
}
