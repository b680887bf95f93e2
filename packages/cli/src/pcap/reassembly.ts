/**
 * One direction of a TCP connection, put back in sequence-number order. Segments ahead of the next expected
 * byte wait in `pending`; retransmits and overlaps are trimmed to the bytes not yet delivered. Sequence
 * numbers are compared as signed 32-bit differences, so wrap-around at 2^32 needs no special case.
 */
export class StreamReassembler {
  private next: number | undefined;
  private readonly pending = new Map<number, Uint8Array>();
  private readonly deliver: (data: Uint8Array, time: number) => void;
  /** Bytes of the stream the capture never saw (a snaplen cut, or lost segments). */
  holes = 0;

  constructor(deliver: (data: Uint8Array, time: number) => void) {
    this.deliver = deliver;
  }

  get started(): boolean {
    return this.next !== undefined;
  }

  /** A SYN fixes the initial sequence number: data starts one byte after it. */
  syn(seq: number): void {
    if (this.next === undefined) this.next = (seq + 1) >>> 0;
  }

  segment(seq: number, payload: Uint8Array, time: number): void {
    if (payload.length === 0) return;
    // Capture started mid-connection: take the first data seen as the start of the stream.
    if (this.next === undefined) this.next = seq;
    const diff = (seq - this.next) | 0;
    if (diff > 0) {
      const waiting = this.pending.get(seq);
      if (waiting === undefined || waiting.length < payload.length) this.pending.set(seq, payload);
      return;
    }
    if (-diff >= payload.length) return;
    this.emit(payload.subarray(-diff), time);
    this.drain(time);
  }

  /** Bytes stuck behind a gap at the end of the capture (the gap was never filled). */
  finish(): number {
    let stuck = 0;
    for (const payload of this.pending.values()) stuck += payload.length;
    this.pending.clear();
    return stuck;
  }

  private emit(data: Uint8Array, time: number): void {
    this.next = ((this.next ?? 0) + data.length) >>> 0;
    this.deliver(data, time);
  }

  private drain(time: number): void {
    let progress = true;
    while (progress && this.pending.size > 0) {
      progress = false;
      for (const [seq, payload] of this.pending) {
        const diff = (seq - (this.next ?? 0)) | 0;
        if (diff > 0) continue;
        this.pending.delete(seq);
        if (-diff < payload.length) this.emit(payload.subarray(-diff), time);
        progress = true;
      }
    }
  }
}
