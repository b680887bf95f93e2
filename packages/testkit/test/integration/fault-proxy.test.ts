// The fault proxy's contract (test/contract/fault-proxy.ts) in front of the shared ZooKeeper server.
import { sharedConnectString } from '../support/helpers.js';
import { hostPort } from '../support/raw-zk.js';
import { droppedPerCons, faultProxyContract } from '../contract/fault-proxy.js';

faultProxyContract('the shared server', () => {
  const address = hostPort(sharedConnectString());
  return Promise.resolve({
    address,
    fourLetterWords: true,
    dropped: (sessionId: bigint) => droppedPerCons(address, sessionId),
    close: () => Promise.resolve(),
  });
});
