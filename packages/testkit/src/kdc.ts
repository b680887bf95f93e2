/**
 * A throw-away Kerberos realm for tests: MIT krb5's KDC (Debian: krb5-kdc, krb5-admin-server, krb5-user) with
 * its database, configuration, keytabs and credential caches in one temp dir, listening on a free loopback
 * port, stopped and removed with the suite. Nothing touches /etc/krb5.conf or the user's ticket cache: every
 * tool runs with KRB5_CONFIG / KRB5_KDC_PROFILE pointing into the dir, and callers get the same variables
 * (`env`) for their own processes and for the Node process that uses GSSAPI.
 *
 * The realm resolves no DNS: hosts are used as written (`dns_canonicalize_hostname = false`, `rdns = false`),
 * and clients talk TCP (`udp_preference_limit = 1`) to 127.0.0.1.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

import { checkRecord, checkString, refuse } from './option-checks.js';
import { checkOptionKeys } from './option-keys.js';

import { ServerStartError, ZooKeeperNotInstalledError } from './errors.js';
import { freePort } from './ports.js';
import { trackChild, trackTempDir, untrackTempDir } from './processes.js';

const run = promisify(execFile);

const TOOLS = {
  krb5kdc: ['/usr/sbin/krb5kdc'],
  kdb5_util: ['/usr/sbin/kdb5_util'],
  'kadmin.local': ['/usr/sbin/kadmin.local'],
  kinit: ['/usr/bin/kinit'],
} as const;
type Tool = keyof typeof TOOLS;

const INSTALL_HINT = 'Debian: `apt-get install krb5-kdc krb5-admin-server krb5-user` (scripts/setup.sh installs them)';

function toolPath(tool: Tool): string | undefined {
  for (const candidate of TOOLS[tool]) if (existsSync(candidate)) return candidate;
  return undefined;
}

/** Why no KDC can run here (a missing tool), or undefined when one can. */
export function kdcUnavailableReason(): string | undefined {
  const missing = (Object.keys(TOOLS) as Tool[]).filter((t) => toolPath(t) === undefined);
  return missing.length === 0 ? undefined : `MIT Kerberos tools missing: ${missing.join(', ')} (${INSTALL_HINT})`;
}

/** Options of startKdc(). */
export interface KdcOptions {
  /** Default 'ZKTS.TEST'. */
  realm?: string;
  /** Longest ticket life the KDC grants (kdc.conf max_life); default '1h'. */
  maxLife?: string;
}

/** A throw-away MIT Kerberos KDC with its realm, principals and keytabs, for tests. */
export interface Kdc extends AsyncDisposable {
  readonly realm: string;
  readonly port: number;
  readonly dir: string;
  /** The krb5.conf every client and server of this realm needs (KRB5_CONFIG, -Djava.security.krb5.conf). */
  readonly krb5Conf: string;
  /** `name@REALM` (a name that already has a realm is returned as is). */
  principal(name: string): string;
  /** Creates a principal with a random key and writes its keytab (returned). */
  addPrincipal(name: string): Promise<string>;
  /**
   * Gets a TGT for `principal` from `keytab` into a new credential cache (returned, a path); `lifetime` as
   * kinit's -l (e.g. '5s'). KRB5CCNAME=<path> makes a process use it.
   */
  kinit(principal: string, keytab: string, options?: { lifetime?: string }): Promise<string>;
  /** KRB5_CONFIG for this realm, plus what `extra` adds (e.g. KRB5CCNAME, KRB5_CLIENT_KTNAME). */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Stops the KDC and removes its files. */
  stop(): Promise<void>;
}

function kdcConf(dir: string, realm: string, port: number, maxLife: string): string {
  return `[kdcdefaults]
 kdc_ports = ${port}
 kdc_tcp_ports = ${port}

[realms]
 ${realm} = {
  database_name = ${join(dir, 'principal')}
  key_stash_file = ${join(dir, 'stash')}
  acl_file = ${join(dir, 'kadm5.acl')}
  admin_keytab = FILE:${join(dir, 'kadm5.keytab')}
  max_life = ${maxLife}
  max_renewable_life = 0
  supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal
  kdc_ports = ${port}
  kdc_tcp_ports = ${port}
 }

[logging]
 kdc = FILE:${join(dir, 'kdc.log')}
 default = FILE:${join(dir, 'krb5.log')}
`;
}

function krb5Conf(dir: string, realm: string, port: number): string {
  return `[libdefaults]
 default_realm = ${realm}
 dns_lookup_kdc = false
 dns_lookup_realm = false
 dns_canonicalize_hostname = false
 rdns = false
 udp_preference_limit = 1
 forwardable = false
 default_ccache_name = FILE:${join(dir, 'ccache-default')}
 default_client_keytab_name = FILE:${join(dir, 'client-default.keytab')}

[realms]
 ${realm} = {
  kdc = 127.0.0.1:${port}
 }

[domain_realm]
 localhost = ${realm}
 127.0.0.1 = ${realm}
`;
}

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * A principal name as kadmin's one-line query takes it (`name`, `service/host`, `name@REALM`): one word, so that
 * nothing in it is read as another kadmin command or option.
 */
function checkPrincipalName(where: string, option: string, value: unknown): void {
  checkString(where, option, value, { optional: false });
  if (!/^[A-Za-z0-9._/@-]+$/.test(value as string)) refuse(where, option, 'a principal name (letters, digits, ".", "_", "-", "/", "@")', value);
}

/** A started KDC (exported for the argument tests, which build one without starting a krb5kdc). @internal */
export class LocalKdc implements Kdc {
  readonly realm: string;
  readonly port: number;
  readonly dir: string;
  readonly krb5Conf: string;
  readonly #child: ChildProcess;
  #caches = 0;
  #stopped = false;

  constructor(init: { realm: string; port: number; dir: string; krb5Conf: string; child: ChildProcess }) {
    this.realm = init.realm;
    this.port = init.port;
    this.dir = init.dir;
    this.krb5Conf = init.krb5Conf;
    this.#child = init.child;
  }

  principal(name: string): string {
    checkPrincipalName('Kdc.principal', 'name', name);
    return name.includes('@') ? name : `${name}@${this.realm}`;
  }

  env(extra: Record<string, string> = {}): Record<string, string> {
    checkRecord('Kdc.env', 'extra', extra, (v) => typeof v === 'string', 'a string');
    return { KRB5_CONFIG: this.krb5Conf, KRB5_KDC_PROFILE: join(this.dir, 'kdc.conf'), ...extra };
  }

  async #tool(tool: Tool, args: string[]): Promise<string> {
    const path = toolPath(tool);
    if (path === undefined) throw new ZooKeeperNotInstalledError(kdcUnavailableReason() ?? tool);
    const { stdout } = await run(path, args, { env: { ...process.env, ...this.env() }, cwd: this.dir });
    return stdout;
  }

  async addPrincipal(name: string): Promise<string> {
    checkPrincipalName('Kdc.addPrincipal', 'name', name);
    const principal = this.principal(name);
    const keytab = join(this.dir, `${principal.replace(/[^\w.-]/g, '_')}.keytab`);
    await this.#tool('kadmin.local', ['-r', this.realm, '-q', `addprinc -randkey ${principal}`]);
    await this.#tool('kadmin.local', ['-r', this.realm, '-q', `ktadd -k ${keytab} ${principal}`]);
    if (!existsSync(keytab)) throw new ServerStartError(`kadmin.local wrote no keytab for ${principal}`);
    return keytab;
  }

  async kinit(principal: string, keytab: string, options: { lifetime?: string } = {}): Promise<string> {
    checkPrincipalName('Kdc.kinit', 'principal', principal);
    checkString('Kdc.kinit', 'keytab', keytab, { optional: false });
    checkOptionKeys(options, ['lifetime'], 'Kdc.kinit');
    checkString('Kdc.kinit', 'lifetime', options.lifetime);
    if (options.lifetime !== undefined && !/^[0-9][0-9a-z:]*$/.test(options.lifetime)) refuse('Kdc.kinit', 'lifetime', "a Kerberos duration like '5s'", options.lifetime);
    const cache = join(this.dir, `ccache-${++this.#caches}`);
    const life = options.lifetime === undefined ? [] : ['-l', options.lifetime];
    await this.#tool('kinit', ['-c', `FILE:${cache}`, ...life, '-k', '-t', keytab, this.principal(principal)]);
    return cache;
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (!exited(this.#child)) {
      const gone = new Promise((resolve) => this.#child.once('exit', resolve));
      this.#child.kill('SIGTERM');
      await Promise.race([gone, sleep(5000)]);
      if (!exited(this.#child)) this.#child.kill('SIGKILL');
    }
    await rm(this.dir, { recursive: true, force: true });
    untrackTempDir(this.dir);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}

/** Creates a realm in a temp dir and starts its KDC; resolves once it accepts connections. */
export async function startKdc(options: KdcOptions = {}): Promise<Kdc> {
  checkOptionKeys(options, ['realm', 'maxLife'], 'startKdc');
  checkString('startKdc', 'realm', options.realm);
  // Written into krb5.conf and kdc.conf: one word, as MIT Kerberos spells a realm and a duration.
  if (options.realm !== undefined && !/^[A-Za-z0-9._-]+$/.test(options.realm)) refuse('startKdc', 'realm', 'letters, digits, ".", "_" or "-"', options.realm);
  checkString('startKdc', 'maxLife', options.maxLife);
  if (options.maxLife !== undefined && !/^[0-9][0-9a-z:]*$/.test(options.maxLife)) refuse('startKdc', 'maxLife', "a Kerberos duration like '1h'", options.maxLife);
  const reason = kdcUnavailableReason();
  if (reason !== undefined) throw new ZooKeeperNotInstalledError(reason);
  const realm = options.realm ?? 'ZKTS.TEST';
  const dir = await mkdtemp(join(tmpdir(), 'zkts-kdc-'));
  trackTempDir(dir);
  try {
    const port = await freePort();
    const conf = join(dir, 'krb5.conf');
    await writeFile(join(dir, 'kdc.conf'), kdcConf(dir, realm, port, options.maxLife ?? '1h'));
    await writeFile(conf, krb5Conf(dir, realm, port));
    await writeFile(join(dir, 'kadm5.acl'), '');
    const env = { ...process.env, KRB5_CONFIG: conf, KRB5_KDC_PROFILE: join(dir, 'kdc.conf') };
    await run(toolPath('kdb5_util') ?? 'kdb5_util', ['create', '-s', '-r', realm, '-P', randomBytes(16).toString('hex')], { env, cwd: dir });
    const child = spawn(toolPath('krb5kdc') ?? 'krb5kdc', ['-n', '-r', realm, '-P', join(dir, 'kdc.pid')], { env, cwd: dir, stdio: 'ignore' });
    trackChild(child);
    child.unref();
    child.on('error', () => undefined);
    const deadline = Date.now() + 20_000;
    while (!(await reachable(port))) {
      if (exited(child) || Date.now() > deadline) {
        const log = await readFile(join(dir, 'kdc.log'), 'utf8').catch(() => '');
        if (!exited(child)) child.kill('SIGKILL');
        throw new ServerStartError(`krb5kdc did not listen on 127.0.0.1:${port} (exit ${String(child.exitCode)}).\n--- kdc.log ---\n${log.slice(-2000)}`);
      }
      await sleep(50);
    }
    return new LocalKdc({ realm, port, dir, krb5Conf: conf, child });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    untrackTempDir(dir);
    throw error;
  }
}
