// The testkit's backends as the contract suites see them: what to pass to startZooKeeper/startEnsemble, why
// the backend cannot run here (only the container backend may be missing: no Docker engine), how many
// servers this test process owns right now (JVMs or containers), for "leaves nothing behind" checks, and what
// its servers are (a JVM, durable data, four-letter words): the suites check each trait where it holds and
// the documented alternative where it does not.
import { dockerUnavailableReason, listTaggedContainers, listTaggedProcesses } from '../../src/index.js';

export interface Traits {
  /** A ZooKeeper JVM (its own log, a start deadline, JVM options). */
  jvm: boolean;
  /** The data survives stop, kill and restart. */
  durable: boolean;
  /** The server answers four-letter words. */
  fourLetterWords: boolean;
}

const JAVA_ZOOKEEPER: Traits = { jvm: true, durable: true, fourLetterWords: true };

export interface BackendUnderTest {
  backend: 'local' | 'container' | 'embedded';
  traits: Traits;
  /** Why the backend cannot run on this machine (the suites then skip, saying so); undefined when it can. */
  unavailable: string | undefined;
  /** Servers (JVMs / containers) owned by this process. */
  owned(): Promise<number>;
}

export const localBackend: BackendUnderTest = {
  backend: 'local',
  traits: JAVA_ZOOKEEPER,
  // The local backend is required on every machine zkts tests on: it never skips.
  unavailable: undefined,
  owned: () => Promise.resolve(listTaggedProcesses().filter((p) => p.tag.startsWith(`${process.pid}-`)).length),
};

export async function containerBackend(): Promise<BackendUnderTest> {
  const reason = await dockerUnavailableReason();
  return {
    backend: 'container',
    traits: JAVA_ZOOKEEPER,
    unavailable: reason === undefined ? undefined : `no Docker engine answers (${reason})`,
    owned: async () => (await listTaggedContainers()).filter((c) => c.tag.startsWith(`${process.pid}-`)).length,
  };
}

/** @zkts/server in this process: always available, in memory (no dataDir), four-letter words answered. */
export function embeddedBackend(): Promise<BackendUnderTest> {
  return Promise.resolve({
    backend: 'embedded',
    traits: { jvm: false, durable: false, fourLetterWords: true },
    unavailable: undefined,
    // Nothing outlives the process: the servers are objects in it.
    owned: () => Promise.resolve(0),
  });
}

/** A describe title that carries the skip reason, so the run's summary says why. */
export function titled(title: string, b: BackendUnderTest): string {
  return b.unavailable === undefined ? `${title} [${b.backend}]` : `${title} [${b.backend}] — SKIPPED: ${b.unavailable}`;
}
