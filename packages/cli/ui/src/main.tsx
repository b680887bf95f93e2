/**
 * The console page's shell: loads Info, shows the server and the console's session state in the header, and
 * routes the location hash (`#/<view>/<rest>`) to one of the registered views.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';

import type { Info } from '../../src/console/api-types.js';
import { loadInfo } from './api.js';
import { allViews } from './views/registry.js';
import './views/all.js';

function currentHash(): string {
  return decodeURIComponent(location.hash.replace(/^#/, '')) || '/tree/';
}

function App() {
  const [info, setInfo] = useState<Info | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [hash, setHash] = useState(currentHash());
  useEffect(() => {
    loadInfo().then(setInfo, (error: unknown) => setFailure(error instanceof Error ? error.message : String(error)));
    const onHash = (): void => setHash(currentHash());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  if (failure !== undefined) return <div class="fatal" data-testid="fatal">{failure}</div>;
  if (info === undefined) return <div class="loading">connecting…</div>;
  const views = allViews().filter((v) => v.enabled(info));
  const [, id = 'tree', ...restParts] = hash.split('/');
  const active = views.find((v) => v.id === id) ?? views[0];
  const rest = `/${restParts.join('/')}`;
  return (
    <div class="app">
      <header class="top">
        <span class="brand">zkts console</span>
        <span class="server" data-testid="server">{info.server}</span>
        {info.readOnly ? <span class="badge" data-testid="read-only">read-only</span> : null}
        <nav class="tabs">
          {views.map((v) => (
            <a key={v.id} href={`#/${v.id}/`} class={v === active ? 'tab active' : 'tab'} data-testid={`tab-${v.id}`}>
              {v.title}
            </a>
          ))}
        </nav>
      </header>
      <main class="view">{active === undefined ? null : <active.component info={info} rest={rest} />}</main>
    </div>
  );
}

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
