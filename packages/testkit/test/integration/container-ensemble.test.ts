// The ensemble contract (test/contract/ensemble.ts) on the container backend: members in containers on their
// own Docker network. Skipped, with the reason in the title, only where no Docker engine answers.
import { containerBackend } from '../contract/backends.js';
import { ensembleContract } from '../contract/ensemble.js';

ensembleContract(await containerBackend());
