/**
 * Network partitions between containerized ensemble members: DROP rules for the blocked peers' addresses in
 * each member's own network namespace, entered from the host with nsenter and written by the host's
 * iptables. Chosen over iptables inside the containers (needs NET_ADMIN and the iptables package in every
 * image; the official images have none) and over per-pair Docker networks (one network per pair, a different
 * address for a peer on each, and docker network disconnect/connect churn on every fault): this works with any
 * image, the members keep one address on one network, and clients — who come through the port mapping from
 * the bridge's gateway, never from a peer's address — keep reaching an isolated member. DROP, not REJECT:
 * a partition is silence, so ZooKeeper sees its timeouts (syncLimit, cnxTimeout), not quick resets.
 * Needs what a local engine on Linux gives a root user: nsenter (util-linux), iptables (a dependency of
 * Debian's docker.io) and the container's pid in this host's /proc.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The chain holding the DROP rules in each member's namespace; INPUT and OUTPUT jump to it. */
export const FAULT_CHAIN = 'ZKTS-FAULTS';

function onPath(command: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin').split(delimiter)) {
    if (dir && existsSync(join(dir, command))) return join(dir, command);
  }
  for (const dir of ['/usr/sbin', '/sbin']) if (existsSync(join(dir, command))) return join(dir, command);
  return undefined;
}

/** undefined when partitions can be made here; else why not. */
export function partitionsUnavailableReason(): string | undefined {
  if (process.getuid?.() !== 0) return 'network faults between containers need root (nsenter into the containers\' network namespaces)';
  if (!onPath('nsenter')) return 'network faults need nsenter (Debian: apt-get install util-linux)';
  if (!onPath('iptables')) return 'network faults need iptables (Debian: apt-get install iptables)';
  return undefined;
}

/** The sh script that makes `blocked` the only addresses the namespace drops (idempotent; one nsenter call). */
export function blockScript(blocked: readonly string[]): string {
  for (const ip of blocked) if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) throw new TypeError(`not an IPv4 address: ${ip}`);
  const ipt = 'iptables -w 5';
  const lines = [
    'set -e',
    `${ipt} -N ${FAULT_CHAIN} 2>/dev/null || true`,
    `${ipt} -C INPUT -j ${FAULT_CHAIN} 2>/dev/null || ${ipt} -I INPUT -j ${FAULT_CHAIN}`,
    `${ipt} -C OUTPUT -j ${FAULT_CHAIN} 2>/dev/null || ${ipt} -I OUTPUT -j ${FAULT_CHAIN}`,
    `${ipt} -F ${FAULT_CHAIN}`,
  ];
  for (const ip of blocked) lines.push(`${ipt} -A ${FAULT_CHAIN} -s ${ip} -j DROP`, `${ipt} -A ${FAULT_CHAIN} -d ${ip} -j DROP`);
  return lines.join('\n');
}

/** Replaces the DROP set of the network namespace of process `pid` (a container's init). */
export function setBlocked(pid: number, blocked: readonly string[]): Promise<void> {
  const unavailable = partitionsUnavailableReason();
  if (unavailable !== undefined) return Promise.reject(new Error(unavailable));
  if (!existsSync(`/proc/${pid}/ns/net`)) {
    return Promise.reject(new Error(`process ${pid} is not visible here: network faults need the Docker engine on this host`));
  }
  return new Promise((resolve, reject) => {
    execFile('nsenter', ['--target', String(pid), '--net', '--', 'sh', '-c', blockScript(blocked)], { timeout: 30_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`iptables in the network namespace of pid ${pid} failed: ${stderr.trim() || error.message}`));
      else resolve();
    });
  });
}

/** Which member indices each member must not hear from, given blocked index pairs. */
export function blockedPeers(size: number, pairs: ReadonlySet<string>): number[][] {
  const out: number[][] = Array.from({ length: size }, () => []);
  for (const pair of pairs) {
    const [a, b] = pair.split('|').map(Number) as [number, number];
    out[a]?.push(b);
    out[b]?.push(a);
  }
  return out.map((list) => [...new Set(list)].sort((x, y) => x - y));
}

/** The key of an unordered member pair. */
export function pairKey(a: number, b: number): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
