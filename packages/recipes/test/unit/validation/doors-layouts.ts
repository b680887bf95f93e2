// Validation table rows: Curator's SimpleDistributedQueue, SharedValue, DistributedAtomicInteger and the gzip helpers.
import { compressLikeCurator, decompressLikeCurator, gunzipDecoder } from '../../../src/index.js';
import { bad, type Door } from './bad-values.js';

type A = Readonly<Record<string, unknown>>;
const gz = compressLikeCurator('x');
const decompressOptions = { maxBytes: bad.int(1, 2 ** 31 - 1) };

export const layoutDoors: Door[] = [
  { door: 'compressLikeCurator', style: 'sync', args: { data: bad.data }, call: ({ data }: A) => compressLikeCurator(data as never) },
  { door: 'decompressLikeCurator', style: 'sync', args: { data: bad.bytes }, options: decompressOptions, optionsType: 'DecompressOptions',
    call: ({ data = gz }: A, o) => decompressLikeCurator(data as never, o as never) },
  { door: 'gunzipDecoder', style: 'sync', options: decompressOptions, optionsType: 'DecompressOptions', call: (_, o) => gunzipDecoder(o as never) },
];
