// The TLS contract (test/contract/tls.ts) on the local backend.
import { localBackend } from '../contract/backends.js';
import { tlsContract } from '../contract/tls.js';

tlsContract(localBackend);
