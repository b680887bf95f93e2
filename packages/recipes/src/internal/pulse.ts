/**
 * A broadcast "something changed" for loops that wait on events they do not own (leader election's state
 * changes and leadership changes). Every waiter shares one promise that settles on the next fire(), so waiting
 * costs no listener per waiter or per loop pass, and none is left behind when a waiter gives up.
 */
export class Pulse {
  private promise!: Promise<void>;
  private resolve!: () => void;

  constructor() {
    this.arm();
  }

  /** Settles on the next fire(). Take it BEFORE looking at the state it reports on, so no change slips between. */
  next(): Promise<void> {
    return this.promise;
  }

  fire(): void {
    const resolve = this.resolve;
    this.arm();
    resolve();
  }

  private arm(): void {
    this.promise = new Promise<void>((resolve) => {
      this.resolve = resolve;
    });
  }
}
