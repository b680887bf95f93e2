// The ensemble contract (test/contract/ensemble.ts) on the local backend: QuorumPeerMain JVMs on loopback.
import { localBackend } from '../contract/backends.js';
import { ensembleContract } from '../contract/ensemble.js';

ensembleContract(localBackend);
