// Raw sockets to a server under test: write bytes, read frames, see the close.
import { connect, type Socket } from 'node:net';
import { FrameSplitter, JuteReader, JuteWriter, readReplyHeader, writeConnectRequest, writeRequestFrame, type RequestBody, type RequestOpCode } from '@zkts/protocol/codec';

export interface Raw {
  socket: Socket;
  frames: Uint8Array[];
  closed: Promise<void>;
  isClosed(): boolean;
  next(ms?: number): Promise<Uint8Array>;
}

export async function rawConnect(port: number): Promise<Raw> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
  const splitter = new FrameSplitter({ maxPacket: 1 << 24 });
  const frames: Uint8Array[] = [];
  let waiter: (() => void) | undefined;
  let closedFlag = false;
  socket.on('data', (c: Buffer) => {
    frames.push(...splitter.push(c).map((f) => f.slice()));
    waiter?.();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      closedFlag = true;
      waiter?.();
      resolve();
    }),
  );
  return {
    socket,
    frames,
    closed,
    isClosed: () => closedFlag,
    async next(ms = 5000) {
      const deadline = Date.now() + ms;
      while (frames.length === 0) {
        if (closedFlag) throw new Error('connection closed');
        if (Date.now() > deadline) throw new Error('no frame');
        await new Promise<void>((r) => {
          waiter = r;
          setTimeout(r, 20);
        });
      }
      return frames.shift() as Uint8Array;
    },
  };
}

export function connectFrame(options: { timeout?: number; sessionId?: bigint; passwd?: Uint8Array; lastZxidSeen?: bigint } = {}): Uint8Array {
  const w = new JuteWriter();
  w.beginFrame();
  writeConnectRequest(
    w,
    { protocolVersion: 0, lastZxidSeen: options.lastZxidSeen ?? 0n, timeOut: options.timeout ?? 10_000, sessionId: options.sessionId ?? 0n, passwd: options.passwd ?? new Uint8Array(16) },
    false,
  );
  return w.endFrame().slice();
}

/** A ping (xid -2, opcode 11, no body): keeps an otherwise idle raw session alive. */
export function pingFrame(): Uint8Array {
  const frame = Buffer.alloc(12);
  frame.writeInt32BE(8, 0);
  frame.writeInt32BE(-2, 4);
  frame.writeInt32BE(11, 8);
  return frame;
}

export function requestFrame<O extends RequestOpCode>(xid: number, op: O, body: RequestBody<O>): Uint8Array {
  return writeRequestFrame(new JuteWriter(), xid, op, body).slice();
}

export function replyOf(frame: Uint8Array): { xid: number; zxid: bigint; err: number; r: JuteReader } {
  const r = new JuteReader(frame);
  return { ...readReplyHeader(r), r };
}
