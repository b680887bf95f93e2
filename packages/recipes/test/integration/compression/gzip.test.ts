// Gzip node data beside Curator 5.4 in a JVM on the same path: Curator writes with create().compressed()
// (GzipCompressionProvider) and we read it, through decompressLikeCurator and a NodeCache decoding with
// gunzipDecoder; we write with compressLikeCurator and Curator's getData().decompressed() reads it. The stored
// bytes of both sides are the same for the same text.
import { describe, expect, it } from 'vitest';

import { compressLikeCurator, decompressLikeCurator, gunzipDecoder, NodeCache } from '@zkts/recipes';

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
});
