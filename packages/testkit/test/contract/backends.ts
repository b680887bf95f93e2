// The testkit's backends as the contract suites see them: what to pass to startZooKeeper/startEnsemble, why
// the backend cannot run here (only the container backend may be missing: no Docker engine), and how many
// servers this test process owns right now (JVMs or containers), for "leaves nothing behind" checks.
import { dockerUnavailableReason, listTaggedContainers, listTaggedProcesses } from '../../src/index.js';

export interface BackendUnderTest {
  backend: 'local' | 'container';
  /** Why the backend cannot run on this machine (the suites then skip, saying so); undefined when it can. */
  unavailable: string | undefined;
  /** Servers (JVMs / containers) owned by this process. */
  owned(): Promise<number>;
}

export const localBackend: BackendUnderTest = {
  backend: 'local',
  // The local backend is required on every machine zkts tests on: it never skips.
  unavailable: undefined,
  owned: () => Promise.resolve(listTaggedProcesses().filter((p) => p.tag.startsWith(`${process.pid}-`)).length),
};

export async function containerBackend(): Promise<BackendUnderTest> {
  const reason = await dockerUnavailableReason();
  return {
    backend: 'container',
    unavailable: reason === undefined ? undefined : `no Docker engine answers (${reason})`,
    owned: async () => (await listTaggedContainers()).filter((c) => c.tag.startsWith(`${process.pid}-`)).length,
  };
}

/** A describe title that carries the skip reason, so the run's summary says why. */
export function titled(title: string, b: BackendUnderTest): string {
  return b.unavailable === undefined ? `${title} [${b.backend}]` : `${title} [${b.backend}] — SKIPPED: ${b.unavailable}`;
}
