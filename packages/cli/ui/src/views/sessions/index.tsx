/**
 * The Sessions view: who is connected and what each session owns and watches (from the four-letter words the
 * server allows), the paths most sessions watch (where a herd of notifications starts), and the server's
 * `mntr` figures over time. Refreshed every 2 s.
 */
import type { JSX } from 'preact';

import type { MntrHistory, ServerSession, SessionsInfo } from '../../../../src/console/api-types.js';
import { getJson } from '../../api.js';
import { duration } from '../../charts/format.js';
import { usePoll } from '../../charts/poll.js';
import { registerView, type ViewProps } from '../registry.js';
import { MntrCharts } from './mntr.js';
import { WordNotes } from './words.js';

const EVERY_MS = 2000;
/** A path watched by this many sessions or more is flagged: one change wakes them all at once. */
export const HERD_THRESHOLD = 10;

function PathList({ paths, testid }: { paths: readonly string[]; testid: string }): JSX.Element {
  if (paths.length === 0) return <span class="muted">0</span>;
  return (
    <details class="path-list">
      <summary data-testid={`${testid}-count`}>{paths.length}</summary>
      <ul data-testid={testid}>
        {paths.map((p) => (
          <li key={p} class="mono">
            {p}
          </li>
        ))}
      </ul>
    </details>
  );
}

function SessionRow({ session, own }: { session: ServerSession; own: boolean }): JSX.Element {
  return (
    <tr data-testid="session-row" data-session={session.id}>
      <td>
        <span class="mono" data-testid="session-id">{session.id}</span>
        {own ? (
          <span class="badge muted" data-testid="own-session" title="the session this console reads the tree with">
            this console
          </span>
        ) : null}
      </td>
      <td class="mono" data-testid="session-address">{session.address ?? '–'}</td>
      <td data-testid="session-timeout">{session.timeoutMs === null ? '–' : duration(session.timeoutMs)}</td>
      <td>
        <PathList paths={session.ephemerals} testid="session-ephemerals" />
      </td>
      <td>
        <PathList paths={session.watches} testid="session-watches" />
      </td>
      <td>{session.received ?? '–'}</td>
      <td>{session.sent ?? '–'}</td>
      <td class="mono">{session.lastOp ?? '–'}</td>
    </tr>
  );
}

function SessionsTable({ info, own }: { info: SessionsInfo; own: string }): JSX.Element {
  if (info.sessions.length === 0) return <p class="muted" data-testid="no-sessions">No sessions listed (see the notes above for the words the server refused).</p>;
  return (
    <table class="grid-table" data-testid="sessions-table">
      <thead>
        <tr>
          <th>session</th>
          <th>address</th>
          <th>timeout</th>
          <th>ephemerals</th>
          <th>watches</th>
          <th>received</th>
          <th>sent</th>
          <th>last op</th>
        </tr>
      </thead>
      <tbody>
        {info.sessions.map((s) => (
          <SessionRow key={s.id} session={s} own={s.id === own} />
        ))}
      </tbody>
    </table>
  );
}

function HotPaths({ info }: { info: SessionsInfo }): JSX.Element {
  if (info.hotPaths.length === 0) return <p class="muted" data-testid="no-hot-paths">No data watches listed.</p>;
  const top = info.hotPaths[0]?.watchers ?? 1;
  return (
    <table class="grid-table" data-testid="hot-paths">
      <thead>
        <tr>
          <th>path</th>
          <th>watchers</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {info.hotPaths.slice(0, 50).map((p) => (
          <tr key={p.path} data-testid="hot-path" data-path={p.path}>
            <td class="mono" data-testid="hot-path-path">{p.path}</td>
            <td data-testid="hot-path-watchers">{p.watchers}</td>
            <td class="bar-cell">
              <span class="bar" style={{ width: `${Math.max(2, (p.watchers / top) * 160)}px` }} />
              {p.watchers >= HERD_THRESHOLD ? (
                <span class="badge bad" data-testid="herd-risk" title={`one change here notifies ${p.watchers} sessions at once`}>
                  herd risk
                </span>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SessionsView({ info: consoleInfo }: ViewProps): JSX.Element {
  const sessions = usePoll((signal) => getJson<SessionsInfo>('/api/sessions', {}, signal), EVERY_MS);
  const mntr = usePoll((signal) => getJson<MntrHistory>('/api/mntr', {}, signal), EVERY_MS);
  const info = sessions.value;
  return (
    <div class="ops" data-testid="sessions-view">
      {sessions.error === undefined ? null : <p class="error" data-testid="sessions-error">{sessions.error.message}</p>}
      {info === undefined ? (
        <p class="muted">asking the server…</p>
      ) : (
        <>
          <WordNotes words={info.words} mntr={mntr.value} />
          <h2>
            Sessions <span class="muted" data-testid="session-count">{info.sessions.length}</span>
          </h2>
          <SessionsTable info={info} own={consoleInfo.session.id} />
          <h2>Most watched paths</h2>
          <p class="muted small">Data watches only (getData/exists): ZooKeeper's words do not list child watches. Flagged at {HERD_THRESHOLD} or more watchers.</p>
          <HotPaths info={info} />
        </>
      )}
      <h2>Server figures (mntr)</h2>
      <MntrCharts history={mntr.value} />
    </div>
  );
}

registerView({ id: 'sessions', title: 'Sessions', enabled: () => true, component: SessionsView });
