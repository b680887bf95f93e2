import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

import { checkFourLetterWord, checkInteger, checkObject, checkString, checkTarget, MAX_TIMER_MS } from './option-checks.js';

import type { Socket } from 'node:net';

/** Where to send a four-letter word. */
export interface FourLetterTarget {
  host: string;
  port: number;
  /** Set to talk to a TLS port (PEM CA + client certificate). */
  tls?: { ca: string; cert: string; key: string };
  /** ms before giving up; default 5000. */
  timeout?: number;
}

/**
 * Sends a four-letter word (ruok, srvr, mntr, cons, wchs, dump, isro, …) and returns the whole answer: the
 * server writes its reply and closes the connection, so "until close" is the framing.
 */
export function fourLetter(target: FourLetterTarget, cmd: string): Promise<string> {
  try {
    checkTarget('fourLetter', 'target', target);
    checkInteger('fourLetter', 'target.timeout', target.timeout, 1, MAX_TIMER_MS);
    const tls = checkObject('fourLetter', 'target.tls', target.tls);
    if (tls !== undefined) for (const k of ['ca', 'cert', 'key']) checkString('fourLetter', `target.tls.${k}`, tls[k], { optional: false });
    checkFourLetterWord('fourLetter', cmd);
  } catch (error) {
    return Promise.reject(error as Error);
  }
  const timeout = target.timeout ?? 5000;
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const done = (error: Error | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const socket: Socket = target.tls
      ? tlsConnect({
          host: target.host,
          port: target.port,
          ca: target.tls.ca,
          cert: target.tls.cert,
          key: target.tls.key,
          servername: 'localhost',
        }, () => socket.write(cmd))
      : netConnect({ host: target.host, port: target.port }, () => socket.write(cmd));
    const timer = setTimeout(() => done(new Error(`four-letter word ${cmd} to ${target.host}:${target.port} timed out after ${timeout} ms`)), timeout);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A TLS server may reset instead of closing cleanly after its answer; what arrived is still the answer.
    socket.on('error', (error) => done(chunks.length > 0 ? undefined : error));
    socket.on('close', () => done(undefined));
  });
}

/** Parses `srvr`'s `Mode:` line: standalone, leader, follower, observer, read-only; undefined when not serving. */
export function modeOf(srvr: string): string | undefined {
  checkString('modeOf', 'srvr', srvr, { optional: false, empty: true });
  return /^Mode: (\S+)/m.exec(srvr)?.[1];
}

/** Parses `mntr` into a key → value map. */
export function parseMntr(mntr: string): Map<string, string> {
  checkString('parseMntr', 'mntr', mntr, { optional: false, empty: true });
  const map = new Map<string, string>();
  for (const line of mntr.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0) map.set(line.slice(0, tab), line.slice(tab + 1).trim());
  }
  return map;
}

/**
 * Asks every member for `srvr` until one says `Mode: leader` (during an election none does), up to `timeout` ms.
 * `ask` gives a member's `srvr` text, or '' when it cannot answer now (stopped, paused, unreachable).
 */
export async function awaitLeader<M>(members: readonly M[], ask: (member: M) => Promise<string>, timeout: number): Promise<M> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const modes = await Promise.all(members.map(async (m) => modeOf(await ask(m))));
    const leader = members[modes.indexOf('leader')];
    if (leader !== undefined) return leader;
    if (Date.now() > deadline) throw new Error(`no ensemble member is leader after ${timeout} ms (modes: ${modes.map(String).join(', ')})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
