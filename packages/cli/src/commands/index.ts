/** The command table, in the order `zkts --help` lists it. */
import type { Command } from '../command.js';
import { acl } from './acl.js';
import { auth } from './auth.js';
import { config } from './config.js';
import { consoleCommand } from './console.js';
import { count } from './count.js';
import { create } from './create.js';
import { decode } from './decode.js';
import { ephemerals } from './ephemerals.js';
import { mntr, ruok, srvr } from './four-letter.js';
import { get } from './get.js';
import { lock } from './lock.js';
import { ls } from './ls.js';
import { proxy } from './proxy.js';
import { delquota, listquota, quota, setquota } from './quota.js';
import { rm } from './rm.js';
import { server } from './server.js';
import { set } from './set.js';
import { shell } from './shell.js';
import { snapshot } from './snapshot.js';
import { stat } from './stat.js';
import { sync } from './sync.js';
import { tree } from './tree.js';
import { txnlog } from './txnlog.js';
import { unwatch } from './unwatch.js';
import { versionCommand as version } from './version.js';
import { watch } from './watch.js';
import { whoami } from './whoami.js';
import { ZKCLI_NAMES } from './zkcli-names.js';

export const COMMANDS: readonly Command[] = [
  ls, tree, get, set, create, rm, stat, acl, quota, auth, whoami, watch, unwatch, sync, ephemerals, count, config,
  srvr, mntr, ruok, version, lock, txnlog, snapshot, decode, proxy, consoleCommand, server, shell,
  // zkCli's names for the commands above; help lists them apart.
  ...ZKCLI_NAMES, setquota, listquota, delquota,
];
