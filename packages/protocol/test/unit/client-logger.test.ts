// The `logger` option against the wire-level fake: one line per reconnect, expiry and renewal, each whole by
// itself (server, cause, wait, session id in hex in its text, since pino drops the details object), levels as
// documented, and format directives in a cause printed as they are by console and pino alike.
import { format } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Logger, type ZkClient } from '../../src/index.js';
import { SessionLog } from '../../src/client/logger.js';
import { FakeServer, eventually, type FakeConnection, type ReceivedRequest } from '../support/fake-server.js';

type Line = [level: string, message: string, details: Record<string, unknown> | undefined];

function recording(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (message: string, details?: Record<string, unknown>) => void lines.push([level, message, details]);
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

/** What pino prints for `logger.info(message, details)`: the message as a format string, the extra value dropped. */
function pinoText(message: string, details: unknown): string {
  let used = false;
  return message.replace(/%[sdifjoO%]/g, (d) => {
    if (d === '%%') return '%';
    if (used) return d;
    used = true;
    return String(details);
  });
}

const servers: FakeServer[] = [];
const clients: ZkClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const s of servers.splice(0)) await s.close();
});

const answer = (conn: FakeConnection, req: ReceivedRequest): void => conn.reply(req.xid, { err: -101 });

describe('the logger', () => {
  it('connected, a lost connection, reconnected, a contested one, an expiry, its renewal, closed: one line each, whole by itself', async () => {
    let next = 0x50n;
    let expireNext = false;
    const s = await FakeServer.start({
      onRequest: answer,
      onConnect: (_conn, req) => (req.sessionId === 0n ? { sessionId: next++ } : expireNext ? { timeOut: 0 } : {}),
    });
    servers.push(s);
    const { logger, lines } = recording();
    const c = createClient(s.connectString, { sessionTimeout: 3000, reconnectDelay: { min: 7, max: 7 }, random: () => 0, logger });
    clients.push(c);
    await c.connect();
    s.last?.close();
    await eventually(() => s.connections.length === 2 && c.state === 'connected', 3000, 'reconnect');
    // Closed by the server right after a re-attach: another connection holds the session (the contest's 1 s wait).
    expireNext = true;
    s.last?.close();
    await eventually(() => c.sessionId === 0x51n && c.state === 'connected', 3000, 'renewal');
    await c.close();
    const server = s.connectString;
    const shown = lines.filter(([level]) => level !== 'debug').map(([level, message]) => [level, message]);
    expect(shown).toEqual([
      ['info', `zkts: connected to ${server} (session 0x50, timeout 3000 ms)`],
      ['warn', `zkts: connection to ${server} closed: connection closed by server; reconnecting in 7 ms (session 0x50)`],
      ['info', expect.stringMatching(new RegExp(`^zkts: reconnected to ${server} after \\d+ ms without a connection \\(session 0x50, timeout 3000 ms\\)$`))],
      ['warn', `zkts: connection to ${server} closed: connection closed by server (another connection holds the session); reconnecting in 1000 ms (session 0x50)`],
      ['warn', `zkts: session 0x50 expired: the server reports the session expired, last server ${server}; opening a new session (its ephemeral nodes are gone)`],
      ['info', `zkts: session 0x50 renewed as 0x51 on ${server} (timeout 3000 ms)`],
      ['info', 'zkts: closed (session 0x51)'],
    ]);
    // Dials are debug, each with its reason and wait.
    expect(lines.filter(([level]) => level === 'debug').map(([, message]) => message)).toEqual([
      `zkts: dialing ${server} (first connection, session 0x0)`,
      `zkts: dialing ${server} after waiting 7 ms (connection lost, session 0x50)`,
      `zkts: dialing ${server} after waiting 1000 ms (session held by another connection, session 0x50)`,
      `zkts: dialing ${server} after waiting 7 ms (new session after an expiry, session 0x0)`,
    ]);
    // The details repeat the facts as plain values, for loggers that keep them.
    const lost = lines.find(([, message]) => message.includes('closed:'))?.[2];
    expect(lost).toEqual({ server, code: 'CONNECTION_LOSS', delayMs: 7, reason: 'lost', sessionId: '0x50' });
    expect(() => JSON.stringify(lines)).not.toThrow();
  });

  it("a '%' in a cause reaches console and pino as it is (the message is their format string)", () => {
    const { logger, lines } = recording();
    new SessionLog(logger).lost(0xabn, 'db1:2181', { code: 'CONNECTION_LOSS', message: 'socket error: 100%s done %d' }, 40, 'lost');
    const [level, message, details] = lines[0] ?? [];
    expect(level).toBe('warn');
    const expected = 'zkts: connection to db1:2181 closed: socket error: 100%s done %d; reconnecting in 40 ms (session 0xab)';
    expect(pinoText(message ?? '', details)).toBe(expected);
    expect(format(message, details).startsWith(`${expected} {`)).toBe(true);
  });

  it('a contested session and a move say so; a move is info', () => {
    const { logger, lines } = recording();
    const log = new SessionLog(logger);
    log.lost(1n, 'a:1', { code: 'CONNECTION_LOSS', message: 'connection closed by server' }, 1500, 'contested');
    log.lost(1n, 'a:1', { code: 'CONNECTION_LOSS', message: 'moving to another server to rebalance the ensemble' }, 0, 'move');
    expect(lines.map(([level, message]) => [level, message])).toEqual([
      ['warn', 'zkts: connection to a:1 closed: connection closed by server (another connection holds the session); reconnecting in 1500 ms (session 0x1)'],
      ['info', 'zkts: connection to a:1 closed: moving to another server to rebalance the ensemble; reconnecting in 0 ms (session 0x1)'],
    ]);
  });
});
