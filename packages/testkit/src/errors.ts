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

/**
 * A value the testkit cannot use (a wrong type, NaN, out of range, an unknown word, a near-miss option key), refused
 * before anything starts; the message names the option and shows the value.
 */
export class InvalidOptionError extends TypeError {
  override readonly name = 'InvalidOptionError';
  readonly code = 'ZKTS_TESTKIT_INVALID_OPTION';
  /** The refused option or argument, as spelled in the signature ('tickTime', 'sasl.digestUsers', 'count'). */
  readonly option: string;

  constructor(option: string, message: string) {
    super(message);
    this.option = option;
  }
}
