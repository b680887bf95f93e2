/**
 * Dynamic reconfiguration (zookeeper.jute, module org.apache.zookeeper.proto).
 *
 *   class ReconfigRequest { ustring joiningServers; ustring leavingServers; ustring newMembers; long curConfigId; }
 *
 * reconfig (16) answers GetDataResponse: the new /zookeeper/config contents and its Stat. curConfigId -1
 * skips the "config did not change meanwhile" check. getConfig is a plain getData on /zookeeper/config.
 */
import type { JuteReader } from '../jute/reader.js';
import type { JuteWriter } from '../jute/writer.js';

/** Where the ensemble configuration lives (ZooDefs.CONFIG_NODE). */
export const CONFIG_NODE = '/zookeeper/config';

/** The `ReconfigRequest` record of zookeeper.jute, field for field (see this file's header). */
export interface ReconfigRequest {
  joiningServers: string | null;
  leavingServers: string | null;
  newMembers: string | null;
  curConfigId: bigint;
}

/** Writes `v` as a `ReconfigRequest`. */
export function writeReconfigRequest(w: JuteWriter, v: ReconfigRequest): void {
  w.writeString(v.joiningServers);
  w.writeString(v.leavingServers);
  w.writeString(v.newMembers);
  w.writeLong(v.curConfigId);
}

/** Reads a `ReconfigRequest` from `r`. */
export function readReconfigRequest(r: JuteReader): ReconfigRequest {
  const joiningServers = r.readString();
  const leavingServers = r.readString();
  const newMembers = r.readString();
  return { joiningServers, leavingServers, newMembers, curConfigId: r.readLong() };
}
