/**
 * The Tree view: breadcrumb, search and the node's children (a virtual list) on the left, the node's detail
 * on the right, both kept current from the live events (live.ts): a change under the node reloads its list
 * within the 100 ms batching, a change of the node its detail.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';

import type { ChangeEvent, Info } from '../../../../src/console/api-types.js';
import { registerView, type ViewProps } from '../registry.js';
import { ChildList } from './child-list.js';
import { parentOf, pathOfRest, treeHref } from './format.js';
import { subscribeLive } from './live.js';
import { NodeDetail } from './node-detail.js';
import { SearchBox } from './search-box.js';

function Breadcrumb({ path }: { readonly path: string }) {
  const names = path === '/' ? [] : path.slice(1).split('/');
  return (
    <nav class="tree-crumbs" data-testid="breadcrumb">
      <a href={treeHref('/')} data-testid="crumb">
        /
      </a>
      {names.map((name, i) => (
        <span key={i}>
          {i === 0 ? '' : ' / '}
          <a href={treeHref(`/${names.slice(0, i + 1).join('/')}`)} data-testid="crumb">
            {name}
          </a>
        </span>
      ))}
    </nav>
  );
}

function TreeView({ info, rest }: ViewProps) {
  const path = pathOfRest(rest);
  return <TreeAt info={info} path={path} />;
}

function TreeAt({ info, path }: { readonly info: Info; readonly path: string }) {
  const [listRevision, setListRevision] = useState(0);
  const [nodeRevision, setNodeRevision] = useState(0);
  const [status, setStatus] = useState('connecting');
  const [filter, setFilter] = useState('');

  useEffect(() => setFilter(''), [path]);

  useEffect(
    () =>
      subscribeLive({
        change: (event: ChangeEvent) => {
          let list = false;
          let node = false;
          for (const change of event.changes) {
            if (change.path === path) node = true;
            else if (change.type !== 'data' && parentOf(change.path) === path) list = true;
          }
          // The Stat (numChildren, cversion) and a recipe read change with the children too.
          if (list) setListRevision((r) => r + 1);
          if (node || list) setNodeRevision((r) => r + 1);
        },
        reset: () => {
          setListRevision((r) => r + 1);
          setNodeRevision((r) => r + 1);
        },
        status: setStatus,
      }),
    [path],
  );

  const onChanged = useCallback(
    (next: string | null) => {
      setListRevision((r) => r + 1);
      setNodeRevision((r) => r + 1);
      const target = next ?? parentOf(path);
      if (target !== path) location.hash = treeHref(target);
    },
    [path],
  );

  return (
    <div class="tree-view" data-testid="tree-view">
      <aside class="tree-left">
        <div class="tree-bar">
          <Breadcrumb path={path} />
          <span class={status === 'live' ? 'tree-live on' : 'tree-live'} data-testid="live-state" title="live updates">
            {status}
          </span>
        </div>
        <SearchBox />
        <input
          type="search"
          class="tree-filter"
          placeholder="filter children by name prefix"
          value={filter}
          spellcheck={false}
          data-testid="child-filter"
          onInput={(event) => setFilter((event.currentTarget as HTMLInputElement).value.replace(/\//g, ''))}
        />
        <ChildList path={path} revision={listRevision} filter={filter} />
      </aside>
      <section class="tree-right">
        <NodeDetail info={info} path={path} revision={nodeRevision} onChanged={onChanged} />
      </section>
    </div>
  );
}

registerView({ id: 'tree', title: 'Tree', enabled: () => true, component: TreeView });
