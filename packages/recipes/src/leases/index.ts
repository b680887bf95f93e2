/** Time-bound leases held until their end time, not by a session: kazoo's NonBlockingLease and MultiNonBlockingLease. */
export {
  NonBlockingLease, MultiNonBlockingLease, type NonBlockingLeaseOptions, type LeaseTerm,
} from './non-blocking-lease.js';

// For inspect/: kazoo's lease node format.
export { decodeLease, type LeaseRecord } from './holder-format.js';
