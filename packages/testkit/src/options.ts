/**
 * Where servers run: a local JVM, a Docker container (engine found by testcontainers), @zkts/server in this
 * process (`embedded`), or whichever of local and container is available (`auto`).
 */
export type Backend = 'local' | 'container' | 'embedded' | 'auto';

/** The clock an embedded server runs on: the shape of ManualClock (and of @zkts/server's Clock). */
export interface EmbeddedClock {
  /** Milliseconds since the epoch, as this clock has it. */
  now(): number;
  /** Calls `callback` once, `ms` from now on this clock; returns a handle for clearTimeout. */
  setTimeout(callback: () => void, ms: number): object;
  /** Cancels a timer this clock's setTimeout made. */
  clearTimeout(timer: object): void;
}

/** The server's log4j/logback level. */
export type LogLevel = 'ERROR' | 'WARN' | 'INFO' | 'DEBUG';

/** How a server authenticates SASL clients (see auth-config.ts). */
export interface SaslServerOptions {
  /** DIGEST-MD5 users, name → password: a JAAS `Server` section with ZooKeeper's DigestLoginModule. */
  digestUsers?: Readonly<Record<string, string>>;
  /**
   * GSSAPI: the server's service principal (e.g. `zookeeper/localhost@REALM`), its keytab and the krb5.conf that
   * names the KDC (a `Kdc` from startKdc gives all three). Excludes digestUsers: a server speaks one mechanism.
   */
  kerberos?: { principal: string; keytab: string; krb5Conf: string };
  /** `zookeeper.superUser`: a SASL id that is also `super`. */
  superUser?: string;
}

/** What a test can ask of a server; everything is optional and defaults to a fast, permissive server. */
export interface ServerOptions {
  /**
   * Default `'auto'`: local when Java and the jars exist, else a container when a Docker engine answers. Never
   * `'embedded'` unless asked for: see README "Embedded".
   */
  backend?: Backend;
  /**
   * Embedded backend only: the server's clock, e.g. a ManualClock, so a test moves session expiry and container
   * reaping by hand.
   */
  clock?: EmbeddedClock;
  /**
   * Embedded backend only: passed to @zkts/server as its `dataDir`. Without it the data lives in memory and is
   * gone after `stop`, `kill` or `restart`.
   */
  dataDir?: string;
  /**
   * Container backend only: the ZooKeeper image (any image with java and ZooKeeper's jars: an Apache release's
   * lib/ or Debian's /usr/share/java). Default `$ZKTS_ZOOKEEPER_IMAGE`, else `zookeeper:3.8` when present, else
   * `zkts-local/zookeeper:3.8` when built (from Debian's packages, by scripts/zookeeper-image.sh), else
   * `zookeeper:3.8` pulled.
   */
  image?: string;
  /** ms, default 500 (fast session expiry and election in tests). */
  tickTime?: number;
  /** ms; ZooKeeper's default is 2 × tickTime. */
  minSessionTimeout?: number;
  /** ms; ZooKeeper's default is 20 × tickTime. */
  maxSessionTimeout?: number;
  /** `4lw.commands.whitelist`, default `'*'`. */
  fourLetterWhitelist?: string;
  /** TTL nodes (`zookeeper.extendedTypesEnabled=true`). */
  extendedTypesEnabled?: boolean;
  /**
   * Ensembles only: dynamic reconfiguration (`reconfigEnabled=true`), so members can be added and removed with
   * `reconfig` (which needs the super user: set `superPassword` too). See Ensemble.addMembers.
   */
  reconfigEnabled?: boolean;
  /** `znode.container.checkIntervalMs`: how often empty containers / expired TTL nodes are reaped. */
  containerCheckIntervalMs?: number;
  /**
   * `readonlymode.enabled=true`: a partitioned ensemble member keeps serving reads. Ensembles then also
   * enable local sessions (`localSessionsEnabled`, `localSessionsUpgradingEnabled`): a read-only server cannot
   * create global sessions.
   */
  readOnlyMode?: boolean;
  /** Enables the `super` digest user with this password (`DigestAuthenticationProvider.superDigest`). */
  superPassword?: string;
  /** Adds a TLS-only client port (`securePort`) with certificates generated for this server. */
  tls?: boolean;
  /**
   * SASL (`authProvider.sasl=SASLAuthenticationProvider` and a generated JAAS file, `-Djava.security.auth.login.config`).
   * Local backend only.
   */
  sasl?: SaslServerOptions;
  /**
   * `enforce.auth.enabled` with these `enforce.auth.schemes` (e.g. `['sasl']`): a session without an identity of
   * one of them gets -124 (SESSIONCLOSEDREQUIRESASLAUTH) for its first request and is closed. Local backend only.
   */
  enforceAuth?: readonly string[];
  /**
   * With `tls`: clients must present a certificate (`ssl.clientAuth=need`), and its subject becomes the
   * session's `x509` identity (`authProvider.x509=X509AuthenticationProvider`). Local backend only.
   */
  x509Auth?: boolean;
  /** `false` leaves out the plain client port (with `tls: true`: a TLS-only server). */
  clientPort?: false;
  /** ms to wait for the server to serve; default 60000 (containers: 120000). */
  startTimeout?: number;
  /** JVM heap cap, default `'256m'`. */
  heap?: string;
  /** Server log level, default `'WARN'`. */
  logLevel?: LogLevel;
  /** Extra zoo.cfg lines (`key=value`). */
  config?: Readonly<Record<string, string | number | boolean>>;
  /** Extra JVM system properties (`-Dkey=value`). */
  systemProperties?: Readonly<Record<string, string | number | boolean>>;
  /** Extra JVM arguments. */
  jvmArgs?: readonly string[];
}

/** PEM material a `node:tls` client needs: the CA, and a client certificate + key signed by it (mutual TLS). */
export interface TlsMaterial {
  ca: string;
  cert: string;
  key: string;
}

/** A running ZooKeeper server: where to connect, and how to stop, kill or restart it. */
export interface ZooKeeperServer extends AsyncDisposable {
  /** `host:port` (the plain port; the TLS port when the server is TLS-only). */
  readonly connectString: string;
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  readonly securePort?: number | undefined;
  readonly tls?: TlsMaterial;
  /** Graceful stop (SIGTERM); the data is kept so `start()` brings it back. */
  stop(): Promise<void>;
  /** SIGKILL: a crash. The data is kept. */
  kill(): Promise<void>;
  /** stop + start on the same data dir and ports. */
  restart(): Promise<void>;
  /** Starts again after stop/kill (no-op while running). */
  start(): Promise<void>;
  /** Sends a four-letter word and resolves with the answer. */
  fourLetter(cmd: string): Promise<string>;
}
