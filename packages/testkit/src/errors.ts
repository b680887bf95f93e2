/** Thrown once, with install instructions, when neither Java nor ZooKeeper's jars can be found. */
export class ZooKeeperNotInstalledError extends Error {
  override readonly name = 'ZooKeeperNotInstalledError';
  readonly code = 'ZKTS_TESTKIT_NOT_INSTALLED';
}

/** A server (or ensemble) did not become ready before its deadline; the message carries the log tail. */
export class ServerStartError extends Error {
  override readonly name = 'ServerStartError';
  readonly code = 'ZKTS_TESTKIT_START_FAILED';
}

/** An option the chosen backend cannot honour (an ensemble or JVM flags on the embedded server…), named. */
export class UnsupportedOptionError extends TypeError {
  override readonly name = 'UnsupportedOptionError';
  readonly code = 'ZKTS_TESTKIT_UNSUPPORTED_OPTION';
  /** The refused option, as spelled in ServerOptions. */
  readonly option: string;

  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}
