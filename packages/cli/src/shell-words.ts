/**
 * Splits a shell line into words the way sh does for the simple cases a ZooKeeper shell needs: whitespace
 * separates, '…' is literal, "…" allows \" and \\, a backslash outside quotes escapes the next character.
 */
import { UsageError } from './exit-codes.js';

export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new UsageError('unclosed single quote');
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (ch === '"') {
      inWord = true;
      let closed = false;
      for (i++; i < line.length; i++) {
        const c = line[i] as string;
        if (c === '"') {
          closed = true;
          break;
        }
        if (c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) word += line[++i];
        else word += c;
      }
      if (!closed) throw new UsageError('unclosed double quote');
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
