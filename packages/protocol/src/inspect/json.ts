/**
 * Decoded records → plain JSON values a person (or `JSON.stringify`) can read: bigint → decimal string, bytes →
 * a preview (UTF-8 text when it is printable text, hex otherwise, cut at `previewBytes`).
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
/** A JSON object, as toJson produces. */
export type JsonObject = { [key: string]: JsonValue };

/** How bytes show up in decoded output. `utf8` or `hex` holds (at most `previewBytes` of) the content. */
export interface BytesPreview {
  [key: string]: JsonValue;
  length: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
// Text a terminal shows safely: no control characters but tab and newlines.
const PRINTABLE = /^[^\p{Cc}\p{Cs}]*$/u;
const CONTROL_OK = /[\t\r\n]/g;

function hexOf(b: Uint8Array): string {
  let s = '';
  for (const byte of b) s += (byte < 16 ? '0' : '') + byte.toString(16);
  return s;
}

/** Bytes as JSON: their length, and a hex and text preview of at most `limit` of them. */
export function previewBytes(b: Uint8Array, limit: number): BytesPreview {
  const cut = b.byteLength > limit ? b.subarray(0, limit) : b;
  const out: BytesPreview = { length: b.byteLength };
  let text: string | undefined;
  try {
    text = strictUtf8.decode(cut);
  } catch {
    // A multi-byte character cut at the limit, or not text at all: hex below.
    text = undefined;
  }
  if (text !== undefined && PRINTABLE.test(text.replace(CONTROL_OK, ''))) out.utf8 = text;
  else out.hex = hexOf(cut);
  if (cut !== b) out.truncated = true;
  return out;
}

/** Any decoded record → JSON. */
export function toJson(value: unknown, limit: number): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
    case 'number':
    case 'boolean':
      return value;
    case 'object':
      if (value instanceof Uint8Array) return previewBytes(value, limit);
      if (Array.isArray(value)) return value.map((e) => toJson(e, limit));
      {
        const out: JsonObject = {};
        for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toJson(v, limit);
        return out;
      }
    default:
      return String(value);
  }
}
