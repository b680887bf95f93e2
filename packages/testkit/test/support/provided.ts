// Types what the testkit's global setup provides, for `inject('zkConnectString')` in every test file.
declare module 'vitest' {
  export interface ProvidedContext {
    zkConnectString: string;
    /** Groups the JVMs of this run (see RUN_ENV in src/processes.ts). */
    zkTestkitRun: string;
  }
}
export {};
