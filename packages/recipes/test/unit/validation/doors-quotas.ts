// Validation table rows: the quotas (setQuota, getQuota, listQuotas, deleteQuota).
import { deleteQuota, getQuota, listQuotas, setQuota } from '../../../src/index.js';
import { bad, client, type Bad, type Door } from './bad-values.js';

type A = Readonly<Record<string, unknown>>;
const c = (): never => client() as never;
/** A quota path: a ZooKeeper path, and neither the root nor inside the quota tree. */
const quotaPath: readonly Bad[] = [
  ...bad.path,
  { label: 'the root', value: '/', mentions: ['path', 'root'] },
  { label: 'the quota tree', value: '/zookeeper/quota', mentions: ['path', "'/zookeeper/quota'"] },
  { label: 'inside the quota tree', value: '/zookeeper/quota/a', mentions: ['path', "'/zookeeper/quota/a'"] },
];
const count = bad.int(1, 2 ** 31 - 1);
const bytes = bad.int(0);

export const quotaDoors: readonly Door[] = [
  { door: 'setQuota', style: 'async', args: { client: bad.client, path: quotaPath },
    options: { count, bytes, countHardLimit: count, bytesHardLimit: bytes, signal: bad.signal }, optionsType: 'SetQuotaOptions', base: { count: 1 },
    call: ({ client: k = c(), path = '/q' }: A, o) => setQuota(k as never, path as never, o as never) },
  { door: 'getQuota', style: 'async', args: { client: bad.client, path: quotaPath }, options: { signal: bad.signal }, optionsType: 'QuotaReadOptions',
    call: ({ client: k = c(), path = '/q' }: A, o) => getQuota(k as never, path as never, o as never) },
  { door: 'listQuotas', style: 'async', args: { client: bad.client }, options: { signal: bad.signal },
    call: ({ client: k = c() }: A, o) => listQuotas(k as never, o as never) },
  { door: 'deleteQuota', style: 'async', args: { client: bad.client, path: quotaPath },
    options: { count: bad.boolean, bytes: bad.boolean, countHardLimit: bad.boolean, bytesHardLimit: bad.boolean, signal: bad.signal },
    optionsType: 'DeleteQuotaOptions',
    call: ({ client: k = c(), path = '/q' }: A, o) => deleteQuota(k as never, path as never, o as never) },
];
