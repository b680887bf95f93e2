/**
 * The auth packet (opcode 100, ZooKeeperServer.processPacket): `digest` adds `digest:user:hash` (and `super`
 * when it matches the configured super digest), `ip` adds the connection's address again; any other scheme
 * fails with AuthFailed (-115) and the connection is closed. The reply carries zxid 0.
 */
import { readAuthPacket, type JuteReader } from '@zkts/protocol/codec';

import { digestOf, type AuthId } from '../tree/acl.js';
import type { ClientConnection, ServerCore } from './core.js';
import { KeeperCode } from './rejection.js';

function addId(list: AuthId[], id: AuthId): void {
  if (!list.some((a) => a.scheme === id.scheme && a.id === id.id)) list.push(id);
}

/** auth (100). */
export function handleAuth(core: ServerCore, conn: ClientConnection, xid: number, r: JuteReader, remoteAddress: string): void {
  const packet = readAuthPacket(r);
  if (packet.scheme === 'digest') {
    const digest = digestOf(new TextDecoder().decode(packet.auth ?? new Uint8Array(0)));
    if (core.options.superDigest !== undefined && digest === core.options.superDigest) addId(conn.authInfo, { scheme: 'super', id: '' });
    addId(conn.authInfo, { scheme: 'digest', id: digest });
    conn.reply(xid, 0n, 0);
    return;
  }
  if (packet.scheme === 'ip') {
    addId(conn.authInfo, { scheme: 'ip', id: remoteAddress });
    conn.reply(xid, 0n, 0);
    return;
  }
  core.options.logger.warn(`no authentication provider for scheme ${JSON.stringify(packet.scheme)}`);
  core.stats.authFailed++;
  conn.reply(xid, 0n, KeeperCode.AUTH_FAILED);
  conn.close('authentication failed');
}
