/**
 * The right pane: one node's data (data-view.tsx), Stat with readable times and sizes, ACL, its write
 * actions (./edit/actions.js) and its recipe (./recipe-panel.js). Read again on every `revision` (a live
 * change of the node or its children).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';

import type { Info, NodeInfo, StatInfo } from '../../../../src/console/api-types.js';
import { ApiError, fromBase64, getJson } from '../../api.js';
import { DataView, type DataMode } from './data-view.js';
import { NodeActions } from './edit/actions.js';
import { formatBytes, formatTime } from './format.js';
import { RecipePanel } from './recipe-panel.js';

export interface NodeDetailProps {
  readonly info: Info;
  readonly path: string;
  readonly revision: number;
  readonly onChanged: (path: string | null) => void;
}

type Loaded = { readonly path: string; readonly node: NodeInfo } | { readonly path: string; readonly error: ApiError | Error };

export function NodeDetail({ info, path, revision, onChanged }: NodeDetailProps) {
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);
  const [mode, setMode] = useState<DataMode | undefined>(undefined);

  useEffect(() => {
    const aborter = new AbortController();
    getJson<NodeInfo>('/api/node', { path }, aborter.signal).then(
      (node) => setLoaded({ path, node }),
      (error: unknown) => {
        if (!aborter.signal.aborted) setLoaded({ path, error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
    return () => aborter.abort();
  }, [path, revision]);

  const node = loaded !== undefined && loaded.path === path && 'node' in loaded ? loaded.node : undefined;
  const bytes = useMemo(() => (node === undefined ? new Uint8Array(0) : fromBase64(node.data)), [node]);

  if (loaded === undefined || loaded.path !== path) return <div class="tree-muted">loading {path}…</div>;
  if ('error' in loaded) {
    const gone = loaded.error instanceof ApiError && loaded.error.code === 'NO_NODE';
    return (
      <div class="tree-error" data-testid={gone ? 'node-missing' : 'node-error'}>
        {gone ? `${path} does not exist (any more).` : `${path}: ${loaded.error.message}`}
      </div>
    );
  }
  const current = loaded.node;
  return (
    <div class="tree-detail" data-testid="node-detail">
      <div class="tree-detail-head">
        <h2 data-testid="node-path">{current.path}</h2>
        <NodeActions info={info} node={current} onChanged={onChanged} />
        {info.dataDir === null ? null : (
          <a class="link" href={`#/history/?path=${encodeURIComponent(current.path)}`} data-testid="node-history">
            history of this node
          </a>
        )}
      </div>
      <RecipePanel info={info} path={current.path} revision={revision} />
      <DataView bytes={bytes} mode={mode} onMode={setMode} dataKey={`${current.path}@${current.stat.mzxid}`} />
      <div class="tree-facts">
        <StatTable stat={current.stat} />
        <AclTable node={current} />
      </div>
    </div>
  );
}

function StatTable({ stat }: { readonly stat: StatInfo }) {
  const owner = stat.ephemeralOwner === '0x0' ? 'none (persistent)' : `${stat.ephemeralOwner} (ephemeral)`;
  const rows: [string, string][] = [
    ['created', formatTime(stat.ctime)],
    ['modified', formatTime(stat.mtime)],
    ['data length', formatBytes(stat.dataLength)],
    ['children', stat.numChildren.toLocaleString('en-US')],
    ['ephemeral owner', owner],
    ['version', String(stat.version)],
    ['cversion', String(stat.cversion)],
    ['aversion', String(stat.aversion)],
    ['czxid', stat.czxid],
    ['mzxid', stat.mzxid],
    ['pzxid', stat.pzxid],
  ];
  return (
    <section>
      <h3>Stat</h3>
      <table class="tree-table" data-testid="stat">
        <tbody>
          {rows.map(([name, value]) => (
            <tr key={name}>
              <th>{name}</th>
              <td data-testid={`stat-${name.replace(/ /g, '-')}`}>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function AclTable({ node }: { readonly node: NodeInfo }) {
  return (
    <section>
      <h3>ACL</h3>
      <table class="tree-table" data-testid="acl">
        <thead>
          <tr>
            <th>scheme</th>
            <th>id</th>
            <th>perms</th>
          </tr>
        </thead>
        <tbody>
          {node.acl.map((entry, i) => (
            <tr key={i} data-testid="acl-row">
              <td>{entry.scheme}</td>
              <td>{entry.id}</td>
              <td>{entry.perms}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
