// The quota doors' own argument rules beyond the validation table: setQuota needs at least one limit, and a
// client with a chroot is refused (quotas live at /zookeeper/quota, outside any chroot), before any call is made.
import { describe, expect, it } from 'vitest';

import { deleteQuota, getQuota, listQuotas, RecipeArgumentError, setQuota } from '../../../src/index.js';
import { FakeZk } from '../../support/fake-zk.js';

describe('quota doors', () => {
  it('setQuota without a limit is refused, naming the four', async () => {
    const zk = new FakeZk();
    for (const options of [{}, { signal: new AbortController().signal }]) {
      const error = await setQuota(zk.client(), '/q', options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RecipeArgumentError);
      expect((error as Error).message).toBe('setQuota: options must set at least one of count, bytes, countHardLimit, bytesHardLimit');
    }
  });

  it('a client with a chroot is refused by every door', async () => {
    const chrooted = Object.assign(new FakeZk().client(), { chroot: '/app' });
    const calls = [
      setQuota(chrooted, '/q', { count: 1 }), getQuota(chrooted, '/q'), listQuotas(chrooted), deleteQuota(chrooted, '/q'),
    ];
    for (const call of calls) await expect(call).rejects.toThrow(/client has the chroot '\/app'; quotas live at \/zookeeper\/quota/);
    // No chroot ('' as ZkClient reports it) is fine.
    const plain = Object.assign(new FakeZk().client(), { chroot: '' });
    await expect(getQuota(plain, '/q')).resolves.toBeUndefined();
  });
});
