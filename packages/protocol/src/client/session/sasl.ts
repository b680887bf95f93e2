/**
 * The SASL step of one connection, the job of Java's ZooKeeperSaslClient: right after the handshake and before
 * anything else (credentials, SetWatches, queued requests), the session's mechanism trades tokens with the
 * server in `sasl` requests (opcode 102: GetSASLRequest out, SetSASLResponse back). The server keeps the
 * identity per connection, so every connection authenticates again: reconnects and renewals alike.
 *
 * Each token is an ordinary request with an xid, sent on the connection ahead of the request queue and matched
 * in its in-flight FIFO like any reply (Java bypasses its queue for them; the server answers in order either
 * way). Until this resolves the session stays `connecting`/`suspended`, sends no ping (a server enforcing auth
 * would refuse it, -124) and does not open the request queue: `connected` means authenticated. The outcome is null (authenticated) or the error to end with:
 *
 *   server answers AUTH_FAILED (-115)         AuthFailedError (cause: the server's error)
 *   server answers -124 (enforce.auth)        SessionClosedRequireSaslAuthError
 *   the mechanism throws (no ticket, bad rspauth, not SASL on the server…)   AuthFailedError (cause: the throw)
 *   the connection goes meanwhile             ConnectionLossError: not an outcome, the host loop goes on
 */
import {
  AuthFailedError,
  ConnectionLossError,
  SessionClosedRequireSaslAuthError,
  ZkError,
  errorFromKeeperCode,
} from '../../errors/errors.js';
import { KeeperCode } from '../../errors/codes.js';
import type { JuteReader } from '../../codec/jute/reader.js';
import type { JuteWriter } from '../../codec/jute/writer.js';
import { OpCode } from '../../codec/records/constants.js';
import type { ReplyHeader } from '../../codec/records/headers.js';
import type { Connection } from './connection.js';
import { debug } from '../diagnostics.js';
import type { RequestEntry, RequestPhase } from '../request.js';
import { requestRecord, responseRecord } from '../requests.js';
import type { SaslExchange, SaslMechanism } from '../sasl/mechanism.js';

/** No mechanism ZooKeeper uses needs more than three round trips; a server that keeps asking is broken. */
const MAX_ROUNDS = 16;
const EMPTY = new Uint8Array(0);
const SASL_REQUEST = requestRecord(OpCode.sasl);
const SASL_RESPONSE = responseRecord(OpCode.sasl);

type Settle = (result: Uint8Array | ZkError) => void;

/** One token out, the server's token (or the error it answered) back. */
class SaslTokenRequest implements RequestEntry {
  readonly op = OpCode.sasl;
  readonly path = undefined;
  phase: RequestPhase = 'queued';
  xid = 0;
  readonly trace = null;
  private readonly token: Uint8Array;
  private readonly settle: Settle;
  private readonly mechanism: string;

  constructor(token: Uint8Array, mechanism: string, settle: Settle) {
    this.token = token;
    this.mechanism = mechanism;
    this.settle = settle;
  }

  write(w: JuteWriter): void {
    SASL_REQUEST.write(w, { token: this.token });
  }

  reply(header: ReplyHeader, r: JuteReader): void {
    this.phase = 'done';
    if (header.err !== 0) {
      this.settle(refusal(header.err, this.mechanism));
      return;
    }
    this.settle(SASL_RESPONSE(r).token ?? EMPTY);
  }

  fail(error: ZkError): void {
    this.phase = 'done';
    this.settle(error);
  }
}

function refusal(code: number, mechanism: string): ZkError {
  const server = errorFromKeeperCode(code);
  if (code === KeeperCode.SESSION_CLOSED_REQUIRE_SASL_AUTH) {
    // A server that enforces SASL answers a failed exchange with -124 rather than -115.
    const error = new SessionClosedRequireSaslAuthError(
      `SASL ${mechanism}: the server refused the authentication, and it requires one (enforce.auth): check the user and password or principal`,
    );
    Object.defineProperty(error, 'keeperCode', { value: code, enumerable: true });
    return error;
  }
  if (code === KeeperCode.AUTH_FAILED) {
    return new AuthFailedError(`SASL ${mechanism}: the server rejected the authentication (unknown user or principal, or a wrong password or key)`, { cause: server });
  }
  return new AuthFailedError(`SASL ${mechanism}: the server answered ${server.code}`, { cause: server });
}

/** What the mechanism threw, as the session's error (its own auth errors kept, anything else wrapped). */
function mechanismFailure(err: unknown, mechanism: string): ZkError {
  if (err instanceof AuthFailedError || err instanceof SessionClosedRequireSaslAuthError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  return new AuthFailedError(`SASL ${mechanism} failed on the client: ${detail}`, { cause: err });
}

/** One token on `conn` (in flight, matched by xid, failed with the connection). */
function send(conn: Connection, token: Uint8Array, mechanism: string): Promise<Uint8Array | ZkError> {
  if (conn.phase !== 'open') return Promise.resolve(new ConnectionLossError('connection closed during SASL authentication', false));
  return new Promise((resolve) => conn.send(new SaslTokenRequest(token, mechanism, resolve)));
}

/** Runs the whole exchange on `conn`; null once the server has accepted us (see the table above). */
export async function authenticate(mechanism: SaslMechanism, conn: Connection): Promise<ZkError | null> {
  const name = mechanism.name;
  const { host, port } = conn.transport.address;
  let exchange: SaslExchange;
  try {
    exchange = await mechanism.start({ host, port });
  } catch (err) {
    return mechanismFailure(err, name);
  }
  try {
    let token: Uint8Array | null = await exchange.initial();
    for (let round = 1; ; round++) {
      if (round > MAX_ROUNDS) return new AuthFailedError(`SASL ${name}: no outcome after ${MAX_ROUNDS} round trips`);
      const answer = await send(conn, token, name);
      if (answer instanceof ZkError) return answer;
      // Complete before this answer (GSSAPI's last token): the server's OK to it is the outcome.
      if (exchange.complete) break;
      token = await exchange.evaluate(answer);
      if (token === null) {
        if (exchange.complete) break;
        return new AuthFailedError(`SASL ${name}: the mechanism has nothing to send but is not complete`);
      }
    }
  } catch (err) {
    return mechanismFailure(err, name);
  } finally {
    try {
      exchange.dispose?.();
    } catch (err) {
      debug('SASL %s: dispose threw: %s', name, String(err));
    }
  }
  debug('SASL %s authenticated with %s:%d', name, host, port);
  return null;
}
