/**
 * The text format of DIGEST-MD5's challenges and responses (RFC 2831 §7.1, the HTTP "#rule"): a comma-separated
 * list of `name=value`, the value a token or a quoted-string with backslash escapes, empty elements allowed.
 * Kept apart from the mechanism so the parser, which reads what a server sends, is tested on its own.
 */
import { ProtocolError } from '../../errors/errors.js';

/** Every directive of a challenge, by lower-cased name, in order of appearance (realm may repeat). */
export type Directives = Map<string, string[]>;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function isLws(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

/** Parses a challenge. Anything malformed is a ProtocolError (a server that does not speak DIGEST-MD5). */
export function parseDirectives(text: string): Directives {
  const out: Directives = new Map();
  let i = 0;
  const n = text.length;
  const fail = (why: string): never => {
    throw new ProtocolError(`malformed DIGEST-MD5 challenge: ${why}`, i);
  };
  while (i < n) {
    while (i < n && (isLws(text[i]) || text[i] === ',')) i++;
    if (i >= n) break;
    const eq = text.indexOf('=', i);
    if (eq < 0) fail('a directive without "="');
    const name = text.slice(i, eq).trim().toLowerCase();
    if (!TOKEN.test(name)) fail(`bad directive name ${JSON.stringify(name)}`);
    i = eq + 1;
    while (i < n && isLws(text[i])) i++;
    let value = '';
    if (text[i] === '"') {
      i++;
      let closed = false;
      while (i < n) {
        const c = text[i] as string;
        if (c === '\\') {
          if (i + 1 >= n) break;
          value += text[i + 1];
          i += 2;
        } else if (c === '"') {
          i++;
          closed = true;
          break;
        } else {
          value += c;
          i++;
        }
      }
      if (!closed) fail('an unterminated quoted string');
    } else {
      const start = i;
      while (i < n && text[i] !== ',' && !isLws(text[i])) i++;
      value = text.slice(start, i);
    }
    while (i < n && isLws(text[i])) i++;
    if (i < n && text[i] !== ',') fail(`unexpected ${JSON.stringify(text[i])} after ${name}`);
    const list = out.get(name);
    if (list === undefined) out.set(name, [value]);
    else list.push(value);
  }
  return out;
}

/** A quoted-string with `"` and `\` escaped. */
export function quote(value: string): string {
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The one value of a directive that may appear at most once (RFC 2831: a repeat is an error). */
export function single(d: Directives, name: string): string | undefined {
  const values = d.get(name);
  if (values === undefined) return undefined;
  if (values.length > 1) throw new ProtocolError(`malformed DIGEST-MD5 challenge: ${name} appears ${values.length} times`);
  return values[0];
}
