// correlateLogger: lines written inside a span carry its trace_id, span_id and trace_flags (inside a recipe's
// work, the recipe's span), in the call's details object or pino's merging object; lines outside any span pass
// through untouched; the wrapped methods run on the logger itself.
import { tracingChannel } from 'node:diagnostics_channel';

import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { correlateLogger } from '../../src/index.js';
import { onlySpan, startOtel, useContextManager, type Otel } from '../support/otel.js';

let otel: Otel;
beforeAll(() => useContextManager());
beforeEach(() => {
  otel = startOtel();
});
afterEach(async () => {
  await otel.close();
});

function recorder(): { lines: unknown[][]; logger: { info(...args: unknown[]): void; warn(...args: unknown[]): void } } {
  const lines: unknown[][] = [];
  return {
    lines,
    logger: {
      info(...args: unknown[]) {
        lines.push(['info', this === undefined ? 'no this' : 'this', ...args]);
      },
      warn(...args: unknown[]) {
        lines.push(['warn', ...args]);
      },
    },
  };
}

describe('correlateLogger', () => {
  it('adds the active span to the details of a client-style call', () => {
    const { lines, logger } = recorder();
    const log = correlateLogger(logger);
    otel.tracerProvider.getTracer('app').startActiveSpan('work', (span) => {
      log.info('zkts: connected', { sessionId: '0x1' });
      span.end();
    });
    const work = onlySpan(otel.finished(), 'work');
    expect(lines).toEqual([
      ['info', 'this', 'zkts: connected', { sessionId: '0x1', trace_id: work.spanContext().traceId, span_id: work.spanContext().spanId, trace_flags: '01' }],
    ]);
  });

  it("merges into pino's first object, or appends one when a call has none", () => {
    const { lines, logger } = recorder();
    const log = correlateLogger(logger);
    otel.tracerProvider.getTracer('app').startActiveSpan('work', (span) => {
      log.warn({ user: 'a' } as never, 'pino style' as never);
      log.warn('just text');
      span.end();
    });
    const { traceId, spanId } = onlySpan(otel.finished(), 'work').spanContext();
    expect(lines).toEqual([
      ['warn', { user: 'a', trace_id: traceId, span_id: spanId, trace_flags: '01' }, 'pino style'],
      ['warn', 'just text', { trace_id: traceId, span_id: spanId, trace_flags: '01' }],
    ]);
  });

  it('outside any span the call is passed as it is; methods the logger lacks stay absent', () => {
    const { lines, logger } = recorder();
    const log = correlateLogger(logger);
    const details = { a: 1 };
    log.info('plain', details);
    expect(lines).toEqual([['info', 'this', 'plain', details]]);
    expect(lines[0]?.[3]).toBe(details);
    expect(Object.keys(log).sort()).toEqual(['info', 'warn']);
  });

  it("inside a recipe's work the recipe's span is the current one", async () => {
    const { lines, logger } = recorder();
    const log = correlateLogger(logger);
    await tracingChannel('zkts:lock.wait').tracePromise(async () => {
      log.info('waiting');
    }, { recipe: 'Mutex', kind: 'exclusive', path: '/l', sessionId: 1n });
    const wait = onlySpan(otel.finished(), 'lock.wait');
    expect(lines[0]?.[3]).toMatchObject({ span_id: wait.spanContext().spanId });
  });
});
