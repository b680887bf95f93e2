// The container backend's pure parts: the launcher that finds java and the jars in any image (run here with
// sh against fake image layouts), the files written into a container, the tar they travel in, Docker's log
// framing, member addresses and the iptables script of a partition.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { blockedPeers, blockScript, pairKey } from '../../src/container-faults.js';
import { memberAddress } from '../../src/container-ensemble.js';
import { containerFiles, demuxDockerLog, launcherScript, shellQuote, tarArchive } from '../../src/container-launch.js';
import { DEBIAN_REQUIRED } from '../../src/java.js';

const scratch = mkdtempSync(join(tmpdir(), 'zkts-launch-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the launcher with `root` standing in for `/` (paths rewritten) and a fake java that prints its argv. */
function launch(root: string, env: Record<string, string> = {}): string {
  const bin = join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'java'), '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
  chmodSync(join(bin, 'java'), 0o755);
  const script = launcherScript('org.example.Main', ["-Dquote=it's", '-Xmx64m'], '/zkts/zoo.cfg')
    .replaceAll('/apache-zookeeper-', `${root}/apache-zookeeper-`)
    .replaceAll('/usr/share/java', `${root}/usr/share/java`)
    .replaceAll(' /conf ', ` ${root}/conf `);
  return execFileSync('sh', ['-c', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: `${bin}:/usr/bin:/bin`, ...env } });
}

function touch(path: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '');
}

describe('launcherScript', () => {
  it('uses an Apache release (official image layout): /conf and the release conf first, then every lib jar', () => {
    const root = join(scratch, 'official');
    touch(join(root, 'apache-zookeeper-3.8.4-bin/lib/zookeeper-3.8.4.jar'));
    touch(join(root, 'apache-zookeeper-3.8.4-bin/lib/zookeeper-jute-3.8.4.jar'));
    mkdirSync(join(root, 'conf'));
    const argv = launch(root).trim().split('\n');
    expect(argv.slice(0, 2)).toEqual(["-Dquote=it's", '-Xmx64m']);
    expect(argv[2]).toBe('-cp');
    expect(argv[3]?.split(':')).toEqual([
      join(root, 'conf'),
      join(root, 'apache-zookeeper-3.8.4-bin/lib/zookeeper-3.8.4.jar'),
      join(root, 'apache-zookeeper-3.8.4-bin/lib/zookeeper-jute-3.8.4.jar'),
    ]);
    expect(argv.slice(4)).toEqual(['org.example.Main', '/zkts/zoo.cfg']);
  });

  it("falls back to Debian's jars, and names what is missing when there are none", () => {
    const root = join(scratch, 'debian');
    for (const jar of DEBIAN_REQUIRED) touch(join(root, 'usr/share/java', jar));
    touch(join(root, 'usr/share/java/slf4j-simple.jar'));
    const cp = launch(root).trim().split('\n')[3]?.split(':') ?? [];
    expect(cp).toHaveLength(DEBIAN_REQUIRED.length + 1);
    expect(cp[0]).toBe(join(root, 'usr/share/java/zookeeper.jar'));
    expect(cp.at(-1)).toBe(join(root, 'usr/share/java/slf4j-simple.jar'));
    rmSync(join(root, 'usr/share/java/netty-codec.jar'));
    let error = '';
    try {
      launch(root);
    } catch (e) {
      error = String((e as { stderr?: string }).stderr);
    }
    expect(error).toMatch(/no ZooKeeper jars in this image .*netty-codec\.jar is missing/);
  });

  it('prefers $JAVA_HOME/bin/java', () => {
    const root = join(scratch, 'javahome');
    for (const jar of DEBIAN_REQUIRED) touch(join(root, 'usr/share/java', jar));
    const home = join(root, 'jdk');
    mkdirSync(join(home, 'bin'), { recursive: true });
    writeFileSync(join(home, 'bin/java'), '#!/bin/sh\necho from-java-home\n');
    chmodSync(join(home, 'bin/java'), 0o755);
    expect(launch(root, { JAVA_HOME: home }).trim()).toBe('from-java-home');
  });

  it('quotes for sh', () => {
    expect(shellQuote("a'b c")).toBe(`'a'\\''b c'`);
  });
});

describe('containerFiles', () => {
  it('writes launcher, zoo.cfg (listening on the container interface, peers by address) and myid', () => {
    const peers = [1, 2, 3].map((id) => ({ id, host: `10.9.0.${10 + id}`, quorumPort: 2888, electionPort: 3888, clientPort: 2181 }));
    const files = containerFiles({ tickTime: 300, readOnlyMode: true }, { plainPort: true, tls: undefined, quorum: { myid: 2, peers } });
    expect(files.map((f) => f.path)).toEqual(['/zkts/run.sh', '/zkts/zoo.cfg', '/zkts/data/myid']);
    const cfg = String(files[1]?.content);
    expect(cfg).toMatch(/^clientPort=2181$/m);
    expect(cfg).toMatch(/^clientPortAddress=0\.0\.0\.0$/m);
    expect(cfg).toMatch(/^dataDir=\/zkts\/data$/m);
    expect(cfg).toMatch(/^server\.2=10\.9\.0\.12:2888:3888:participant;10\.9\.0\.12:2181$/m);
    expect(String(files[0]?.content)).toContain('org.apache.zookeeper.server.quorum.QuorumPeerMain');
    expect(String(files[0]?.content)).toContain("'-Dreadonlymode.enabled=true'");
    expect(files[0]?.mode).toBe(0o755);
    expect(files[2]?.content).toBe('2\n');
  });

  it('adds the TLS stores and a secure port', () => {
    const tls = { keyStore: Buffer.from('k'), trustStore: Buffer.from('t'), password: 'pw' };
    const files = containerFiles({}, { plainPort: false, tls });
    expect(files.map((f) => f.path)).toEqual(['/zkts/run.sh', '/zkts/zoo.cfg', '/zkts/tls/keystore.p12', '/zkts/tls/truststore.p12']);
    expect(String(files[1]?.content)).toMatch(/^secureClientPort=2281$/m);
    expect(String(files[1]?.content)).not.toMatch(/^clientPort=/m);
    expect(String(files[0]?.content)).toContain("'-Dzookeeper.ssl.keyStore.location=/zkts/tls/keystore.p12'");
  });
});

describe('tarArchive', () => {
  it('is a tar that tar(1) extracts, parent directories and modes included', () => {
    const dir = join(scratch, 'untar');
    mkdirSync(dir);
    const archive = join(scratch, 'files.tar');
    writeFileSync(archive, tarArchive([
      { path: '/zkts/run.sh', content: '#!/bin/sh\n', mode: 0o755 },
      { path: '/zkts/data/myid', content: Buffer.from('3\n') },
    ]));
    execFileSync('tar', ['-xf', archive, '-C', dir]);
    expect(execFileSync('cat', [join(dir, 'zkts/data/myid')], { encoding: 'utf8' })).toBe('3\n');
    expect(execFileSync('stat', ['-c', '%a', join(dir, 'zkts/run.sh')], { encoding: 'utf8' }).trim()).toBe('755');
  });
});

describe('demuxDockerLog', () => {
  it('joins the payloads of stdout/stderr frames', () => {
    const frame = (stream: number, text: string): Buffer => {
      const header = Buffer.alloc(8);
      header[0] = stream;
      header.writeUInt32BE(Buffer.byteLength(text), 4);
      return Buffer.concat([header, Buffer.from(text)]);
    };
    expect(demuxDockerLog(Buffer.concat([frame(1, 'out\n'), frame(2, 'err\n')]))).toBe('out\nerr\n');
    expect(demuxDockerLog(Buffer.from('plain text, no frames'))).toBe('plain text, no frames');
  });
});

describe('ensemble addressing and partitions', () => {
  it('gives member n the address .10+n of the subnet', () => {
    expect(memberAddress('172.18.0.0/16', 1)).toBe('172.18.0.11');
    expect(memberAddress('192.168.32.0/20', 5)).toBe('192.168.32.15');
    expect(() => memberAddress('10.0.0.0/28', 1)).toThrow(/unexpected subnet/);
  });

  it('turns cut pairs into each member\'s blocked peers', () => {
    const cuts = new Set([pairKey(0, 1), pairKey(2, 0), pairKey(1, 0)]);
    expect(blockedPeers(4, cuts)).toEqual([[1, 2], [0], [0], []]);
  });

  it('writes an idempotent iptables script that drops exactly the blocked addresses, both ways', () => {
    const script = blockScript(['172.18.0.12']);
    expect(script).toContain('-F ZKTS-FAULTS');
    expect(script).toContain('-A ZKTS-FAULTS -s 172.18.0.12 -j DROP');
    expect(script).toContain('-A ZKTS-FAULTS -d 172.18.0.12 -j DROP');
    expect(blockScript([])).not.toContain('-A ZKTS-FAULTS');
    expect(() => blockScript(['172.18.0.12; reboot'])).toThrow(/not an IPv4 address/);
  });
});
