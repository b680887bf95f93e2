import { describe, expect, it } from 'vitest';

import { drawTree } from '../../src/commands/tree.js';
import { dataRecord, formatStat, permString, toJson } from '../../src/output.js';
import { splitWords } from '../../src/shell-words.js';

describe('formatting', () => {
  it('draws trees with box characters', () => {
    const leaf = (path: string, name: string) => ({ path, name, children: [] });
    const tree = { path: '/r', name: 'r', children: [{ path: '/r/a', name: 'a', children: [leaf('/r/a/x', 'x')] }, leaf('/r/b', 'b')] };
    expect(drawTree(tree)).toBe('/r\n├── a\n│   └── x\n└── b');
  });

  it('prints stats in hex zxids and ISO times', () => {
    const stat = { czxid: 0x1an, mzxid: 0x1bn, ctime: 0, mtime: 1000, version: 2, cversion: 3, aversion: 4, ephemeralOwner: 0n, dataLength: 5, numChildren: 6, pzxid: 0x1cn };
    expect(formatStat(stat)).toBe(
      'czxid = 0x1a\nctime = 1970-01-01T00:00:00.000Z\nmzxid = 0x1b\nmtime = 1970-01-01T00:00:01.000Z\npzxid = 0x1c\n' +
        'cversion = 3\ndataVersion = 2\naclVersion = 4\nephemeralOwner = 0x0\ndataLength = 5\nnumChildren = 6',
    );
  });

  it('writes longs as decimal strings in JSON and names permissions in cdrwa order', () => {
    expect(toJson({ zxid: 2n ** 63n - 1n, n: 1 })).toBe('{"zxid":"9223372036854775807","n":1}');
    expect(permString(31)).toBe('cdrwa');
    expect(permString(1 | 16)).toBe('ra');
  });

  it('shows data as UTF-8 when it is, base64 otherwise', () => {
    expect(dataRecord(new TextEncoder().encode('héllo'))).toEqual({ data: 'héllo', encoding: 'utf8' });
    expect(dataRecord(new Uint8Array([0xff, 0xfe]))).toEqual({ data: '//4=', encoding: 'base64' });
    expect(dataRecord(null)).toEqual({ data: null, encoding: 'utf8' });
  });
});

describe('shell words', () => {
  it('splits like sh for quotes and backslashes', () => {
    expect(splitWords('  create /a "two words"  \'it\'\'s\' x\\ y ""')).toEqual(['create', '/a', 'two words', 'its', 'x y', '']);
    expect(splitWords('set /a "say \\"hi\\" \\\\ now"')).toEqual(['set', '/a', 'say "hi" \\ now']);
    expect(splitWords('')).toEqual([]);
    expect(() => splitWords('get "/a')).toThrow('unclosed double quote');
    expect(() => splitWords("get '/a")).toThrow('unclosed single quote');
  });
});
