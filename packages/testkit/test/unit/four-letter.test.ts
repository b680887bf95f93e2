// What the testkit reads from four-letter words: the server's mode in `srvr`, the keys of `mntr`.
import { describe, expect, it } from 'vitest';

import { modeOf, parseMntr } from '../../src/four-letter.js';

describe('four-letter parsing', () => {
  it('finds the mode in srvr and keys in mntr', () => {
    expect(modeOf('Zookeeper version: 3.8.0\nMode: follower\nNode count: 5\n')).toBe('follower');
    expect(modeOf('This ZooKeeper instance is not currently serving requests\n')).toBeUndefined();
    expect(parseMntr('zk_version\t3.8.0\nzk_znode_count\t7\n').get('zk_znode_count')).toBe('7');
  });
});
