// Gzip node data beside Curator 5.4 in a JVM on the same path: Curator writes with create().compressed()
// (GzipCompressionProvider) and we read it, through decompressLikeCurator and a NodeCache decoding with
// gunzipDecoder; we write with compressLikeCurator and Curator's getData().decompressed() reads it. The stored
// bytes of both sides are the same for the same text.
import { describe, expect, it } from 'vitest';

import { TreeCache, compressLikeCurator, decompressLikeCurator, gunzipDecoder, NodeCache, type RecipeError } from '@zkts/recipes';

import { compileCurator, javaMain } from '../../support/foreign.js';
import { sharedServer, uniqueRoot, until } from '../../support/helpers.js';
import { perTestResources } from '../../support/testbed.js';

const { clients } = perTestResources();

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('gzip data as Curator writes it', () => {
  it('Curator writes compressed data we read, and reads ours; the stored bytes match', async () => {
    const compiled = compileCurator('CuratorLayouts.java');
    try {
      const root = uniqueRoot();
      const text = `compressed by Curator ${'é'.repeat(3)} ${'x'.repeat(500)}`;
      const c = await clients.connect();
      const cache = new NodeCache(c, `${root}/theirs`, { data: gunzipDecoder({ maxBytes: 4096 }) });
      await cache.start();
      const jvm = javaMain(compiled.classpath, 'CuratorLayouts', 'gzip-write', sharedServer(), `${root}/theirs`, text);
      const raw = (await jvm.line(/RAW ([0-9a-f]+)/, 60_000))[1]!;
      expect(await jvm.exited).toBe(0);
      const stored = (await c.getData(`${root}/theirs`)).data;
      expect(hex(stored)).toBe(raw);
      expect(stored.length).toBeLessThan(text.length); // really compressed, not stored as is
      expect(new TextDecoder().decode(decompressLikeCurator(stored))).toBe(text);
      expect(hex(compressLikeCurator(text))).toBe(raw); // Curator's bytes, byte for byte
      await until(() => cache.current !== null, 10_000, 'the cache decodes the node');
      expect(new TextDecoder().decode(cache.current!.data)).toBe(text);
      await cache.close();

      const ours = `ours: ${'zkts '.repeat(100)}`;
      await c.create(`${root}/ours`, compressLikeCurator(ours));
      const reader = javaMain(compiled.classpath, 'CuratorLayouts', 'gzip-read', sharedServer(), `${root}/ours`);
      expect((await reader.line(/TEXT (.*)\n/, 60_000))[1]).toBe(ours);
      expect(await reader.exited).toBe(0);
    } finally {
      compiled.dispose();
    }
  }, 120_000);

  it('a cache decoding with gunzipDecoder reports a bomb or plain data on that node alone, with typed causes', async () => {
    const root = uniqueRoot();
    const c = await clients.connect();
    await c.mkdirp(root);
    await c.create(`${root}/fine`, compressLikeCurator('fine'));
    await c.create(`${root}/bomb`, compressLikeCurator(new Uint8Array(1024 * 1024))); // 1 MiB of zeros, ~1 KiB stored
    await c.create(`${root}/plain`, 'not compressed');
    const errors: (RecipeError | Error)[] = [];
    const cache = new TreeCache(c, root, { data: gunzipDecoder({ maxBytes: 64 * 1024 }), onError: (e) => errors.push(e) });
    await cache.start();
    await until(() => errors.length === 2, 10_000, 'two decode errors');
    expect(new TextDecoder().decode(cache.get(`${root}/fine`)!.data)).toBe('fine');
    expect(cache.get(root)!.data).toEqual(new Uint8Array(0)); // the directory's empty data is no error
    const byPath = new Map(errors.map((e) => [(e as { path?: string }).path, e]));
    expect(byPath.get(`${root}/bomb`)).toMatchObject({ code: 'CACHE_DECODE', cause: { code: 'DECOMPRESSED_TOO_LARGE', maxBytes: 64 * 1024 } });
    expect(byPath.get(`${root}/plain`)).toMatchObject({ code: 'CACHE_DECODE', cause: { code: 'COMPRESSED_CORRUPT' } });
    await cache.close();
  });
});
