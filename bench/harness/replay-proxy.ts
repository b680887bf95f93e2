// The watch-replay row needs a reconnect it can time from outside the client: this proxy, run by the harness
// (parent) process between one measured client and the server, cuts the connection on request, stops
// listening (a reconnect is refused, as by a server that is down) while the harness changes every watched node,
// then listens again on the same port and notes the moment it accepts the new connection (t0 of the row). It also counts the SetWatches frames the client sends after
// the reconnect, so the row can say how each client replays (one frame or batches) without trusting its docs.
//
// The bytes are piped untouched (no framing on the server's side, only a scan of the client's frame headers),
// and the proxy runs in the parent, on the other core, so it costs the measured process nothing.
//
// Control: a child (Node or the JVM) connects to `controlPort` and sends one command per line; each gets one
// reply line: `cut` → `ok` (current connections closed, no longer listening); `change` → `ok` once the harness's
// change hook (setData on every watched node) is done; `open` → `ok` (listening again); `accepted` → `ok <ns>`
// once a connection was accepted after `open` (process.hrtime, i.e. CLOCK_MONOTONIC, the clock of Node's
// hrtime and Java's System.nanoTime on Linux); `frames` → `ok <setWatchesFrames> <largestFrameBytes>
// <totalBytes> <connections>` for what the clients sent since `open`, over how many accepted connections.
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

const OP_SET_WATCHES = 101;
const OP_SET_WATCHES2 = 105;
/** No client here sends more in one frame (a four-letter word read as a length is ~1.9 GB). */
const MAX_FRAME = 64 * 1024 * 1024;

/** Totals of the SetWatches frames seen (client → server). */
export interface FrameCounts {
  setWatchesFrames: number;
  largestFrameBytes: number;
  totalBytes: number;
  connections: number;
}

/**
 * Reads a client's byte stream frame by frame without keeping the frames: per frame, its length and the
 * opcode of its request header (the first frame of a connection is the headerless ConnectRequest).
 */
export class FrameScanner {
  /** The current frame's length prefix and request header (xid, type): 12 bytes. */
  readonly #head = new Uint8Array(12);
  #headFill = 0;
  /** Bytes of the current frame's payload not yet seen (after the header). */
  #skip = 0;
  #first = true;
  readonly #onFrame: (op: number, length: number) => void;

  constructor(onFrame: (op: number, length: number) => void) {
    this.#onFrame = onFrame;
  }

  push(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.byteLength) {
      if (this.#skip > 0) {
        const n = Math.min(this.#skip, chunk.byteLength - at);
        this.#skip -= n;
        at += n;
        continue;
      }
      const n = Math.min(12 - this.#headFill, chunk.byteLength - at);
      this.#head.set(chunk.subarray(at, at + n), this.#headFill);
      this.#headFill += n;
      at += n;
      if (this.#headFill < 12) return;
      const v = new DataView(this.#head.buffer);
      const length = v.getInt32(0);
      // A frame shorter than a request header (a bare ping is exactly 8 bytes) ends inside the 12 bytes read.
      if (length < 8 || length > MAX_FRAME) throw new Error(`frame length ${length}: not ZooKeeper framing`);
      this.#headFill = 0;
      this.#skip = length - 8;
      if (this.#first) this.#first = false;
      else this.#onFrame(v.getInt32(8), length);
    }
  }
}

export interface ReplayProxy {
  readonly port: number;
  readonly controlPort: number;
  close(): Promise<void>;
}

function listen(server: Server, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const a = server.address();
      if (a === null || typeof a === 'string') reject(new Error('not listening'));
      else resolve(a.port);
    });
  });
}

/** A proxy to `upstream` plus its control port; `change` runs the harness's hook (see the header). */
export async function startReplayProxy(upstream: { host: string; port: number }, change: () => Promise<void>): Promise<ReplayProxy> {
  const pairs = new Set<Socket>();
  let acceptedAt: bigint | undefined;
  let onAccepted: (() => void) | undefined;
  const counts: FrameCounts = { setWatchesFrames: 0, largestFrameBytes: 0, totalBytes: 0, connections: 0 };

  const proxy = createServer((client) => {
    acceptedAt ??= process.hrtime.bigint();
    counts.connections++;
    onAccepted?.();
    const server = connect(upstream);
    client.setNoDelay(true);
    server.setNoDelay(true);
    pairs.add(client);
    pairs.add(server);
    const scanner = new FrameScanner((op, length) => {
      if (op !== OP_SET_WATCHES && op !== OP_SET_WATCHES2) return;
      counts.setWatchesFrames++;
      counts.largestFrameBytes = Math.max(counts.largestFrameBytes, length);
      counts.totalBytes += length;
    });
    client.on('data', (chunk: Buffer) => {
      try {
        scanner.push(chunk);
      } catch {
        // Not ZooKeeper framing (a four-letter word): nothing to count.
      }
    });
    client.pipe(server);
    server.pipe(client);
    const end = (): void => {
      pairs.delete(client);
      pairs.delete(server);
      client.destroy();
      server.destroy();
    };
    for (const s of [client, server]) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  const port = await listen(proxy);

  const commands: Record<string, () => Promise<string>> = {
    cut: async () => {
      // close() stops listening at once; its callback would wait for the connections, which go now.
      proxy.close();
      for (const s of [...pairs]) s.destroy();
      pairs.clear();
      return 'ok';
    },
    change: async () => {
      await change();
      return 'ok';
    },
    open: async () => {
      acceptedAt = undefined;
      counts.setWatchesFrames = 0;
      counts.largestFrameBytes = 0;
      counts.totalBytes = 0;
      counts.connections = 0;
      await listen(proxy, port);
      return 'ok';
    },
    accepted: async () => {
      if (acceptedAt === undefined) await new Promise<void>((resolve) => (onAccepted = resolve));
      onAccepted = undefined;
      return `ok ${String(acceptedAt)}`;
    },
    frames: async () => `ok ${counts.setWatchesFrames} ${counts.largestFrameBytes} ${counts.totalBytes} ${counts.connections}`,
  };

  const control = createServer((socket) => {
    let buffered = '';
    let chain = Promise.resolve();
    socket.setEncoding('utf8');
    socket.on('error', () => undefined);
    socket.on('data', (text: string) => {
      buffered += text;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        const run = commands[line];
        chain = chain.then(async () => {
          let reply: string;
          try {
            reply = run ? await run() : `error unknown command ${line}`;
          } catch (e) {
            reply = `error ${(e instanceof Error ? e.message : String(e)).replace(/\n/g, ' ')}`;
          }
          if (!socket.destroyed) socket.write(`${reply}\n`);
        });
      }
    });
  });
  const controlPort = await listen(control);

  return {
    port,
    controlPort,
    close: async () => {
      for (const s of pairs) s.destroy();
      if (proxy.listening) proxy.close();
      await new Promise((r) => control.close(r));
    },
  };
}

/** The child's side of the control port (Node children; ZkBench.java has its own). */
export class ControlClient {
  readonly #socket: Socket;
  #buffered = '';
  readonly #waiting: ((line: string) => void)[] = [];

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (text: string) => {
      this.#buffered += text;
      let nl: number;
      while ((nl = this.#buffered.indexOf('\n')) >= 0) {
        const line = this.#buffered.slice(0, nl);
        this.#buffered = this.#buffered.slice(nl + 1);
        this.#waiting.shift()?.(line);
      }
    });
  }

  static open(port: number): Promise<ControlClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port }, () => resolve(new ControlClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends `command`, resolves with the reply's fields after `ok`; rejects on an `error` reply. */
  async send(command: string): Promise<string[]> {
    const reply = await new Promise<string>((resolve) => {
      this.#waiting.push(resolve);
      this.#socket.write(`${command}\n`);
    });
    const [status = '', ...fields] = reply.split(' ');
    if (status !== 'ok') throw new Error(`proxy control: ${command}: ${reply}`);
    return fields;
  }

  close(): void {
    this.#socket.destroy();
  }
}
