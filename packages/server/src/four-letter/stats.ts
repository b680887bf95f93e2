/**
 * The counters the four-letter words report, kept as ServerStats and ServerCnxn keep them: packets received
 * and sent, request latency (min/avg/max, ms), response sizes and failed authentications for the server; per
 * connection the same packet counts, the last operation, cxid, zxid, response time and latency.
 */

/** Request.op2String's short names, as FinalRequestProcessor records a connection's last operation. */
const OP_NAMES = new Map<number, string>([
  [0, 'NOTI'], [1, 'CREA'], [2, 'DELE'], [3, 'EXIS'], [4, 'GETD'], [5, 'SETD'], [6, 'GETA'], [7, 'SETA'],
  [8, 'GETC'], [9, 'SYNC'], [11, 'PING'], [12, 'GETC'], [13, 'CHEC'], [14, 'MULT'], [15, 'CREA'], [16, 'RECO'],
  [17, 'CHKW'], [18, 'REMW'], [19, 'CREA'], [20, 'DELE'], [21, 'CREA'], [22, 'MLTR'], [101, 'SETW'], [103, 'GETE'],
  [104, 'GETACN'], [105, 'STW2'], [106, 'ADDW'], [107, 'HOMI'], [-10, 'SESS'], [-11, 'CLOS'],
]);

/** Latency bookkeeping shared by the server and each connection. */
class Latency {
  count = 0;
  total = 0;
  min = Number.MAX_SAFE_INTEGER;
  max = 0;
  last = 0;

  reset(): void {
    this.count = 0;
    this.total = 0;
    this.min = Number.MAX_SAFE_INTEGER;
    this.max = 0;
    this.last = 0;
  }

  add(ms: number): void {
    this.count++;
    this.total += ms;
    this.last = ms;
    if (ms < this.min) this.min = ms;
    if (ms > this.max) this.max = ms;
  }

  /** 0 when nothing was measured, as ServerStats reports it. */
  get minimum(): number {
    return this.count === 0 ? 0 : this.min;
  }

  average(): number {
    return this.count === 0 ? 0 : this.total / this.count;
  }
}

/** One connection's counters (ServerCnxn). */
export class ConnectionStats {
  received = 0;
  sent = 0;
  lastOp = 'NA';
  lastCxid = -1;
  lastZxid = -1n;
  lastResponseTime = 0;
  /** lresp: ZooKeeper prints the monotonic Time.currentElapsedTime(), not a wall time. */
  lastResponseElapsed = 0;
  readonly latency = new Latency();

  constructor(readonly established: number) {}

  /** crst (ServerCnxn.resetStats). */
  reset(): void {
    this.received = 0;
    this.sent = 0;
    this.lastOp = 'NA';
    this.lastCxid = -1;
    this.lastZxid = -1n;
    this.lastResponseTime = 0;
    this.lastResponseElapsed = 0;
    this.latency.reset();
  }

  /** A request was answered: what cons reports as lop, lcxid, lzxid, lresp and the latencies. */
  responded(type: number, cxid: number, zxid: bigint, start: number, end: number): void {
    this.lastOp = OP_NAMES.get(type) ?? 'NA';
    if (cxid >= 0) this.lastCxid = cxid;
    this.lastZxid = zxid;
    this.lastResponseTime = end;
    this.lastResponseElapsed = Math.trunc(performance.now());
    this.latency.add(Math.max(0, end - start));
  }
}

/** The server's counters (ServerStats). */
export class ServerStats {
  received = 0;
  sent = 0;
  authFailed = 0;
  readonly latency = new Latency();
  lastResponseSize = 0;
  minResponseSize = Number.MAX_SAFE_INTEGER;
  maxResponseSize = 0;

  /** The bound ports, for conf (-1: none). */
  clientPort = -1;
  securePort = -1;

  constructor(readonly startTime: number) {}

  /** srst (ServerStats.reset). */
  reset(): void {
    this.received = 0;
    this.sent = 0;
    this.latency.reset();
    this.lastResponseSize = 0;
    this.minResponseSize = Number.MAX_SAFE_INTEGER;
    this.maxResponseSize = 0;
    this.authFailed = 0;
  }

  /** A request frame was handled on `conn` between `start` and `end` (ms): the connection's and the server's counters. */
  requestDone(conn: ConnectionStats, frame: Uint8Array, handshake: boolean, zxid: bigint, start: number, end: number): void {
    this.received++;
    conn.received++;
    const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
    const cxid = handshake || frame.length < 8 ? -1 : view.getInt32(0);
    const type = handshake ? -10 : frame.length < 8 ? 0 : view.getInt32(4);
    conn.responded(type, cxid, zxid, start, end);
    this.latency.add(Math.max(0, end - start));
  }

  /** A frame left the server: `size` bytes without the length prefix. */
  packetSent(size: number): void {
    this.sent++;
    this.lastResponseSize = size;
    if (size < this.minResponseSize) this.minResponseSize = size;
    if (size > this.maxResponseSize) this.maxResponseSize = size;
  }
}

/** Java's Double.toString for the values the words print (an integral value keeps its `.0`). */
export function javaDouble(x: number): string {
  return Number.isInteger(x) ? x.toFixed(1) : String(x);
}
