/**
 * A node's recipe, when its layout is a known one (GET /api/recipe): a card with the recipe's title, its summary
 * facts and its members in queue order (holders and leaders first, highlighted), each with its owner, library,
 * session (a link to the sessions view) and how long it has held or waited, counted on the page every second.
 * It reloads when the tree view bumps `revision` (a live change) and, while it shows a recipe and the page is
 * visible, polls every 2 s so ages and summary facts stay current even when no event arrives. A plain node is
 * not polled (the panel shows nothing for it): it becomes a recipe only by children appearing, which bumps
 * `revision`, and a node with very many children would cost a full listing every poll.
 * Everything read from ZooKeeper is rendered as text.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

import type { Info, RecipeInfo, RecipeMemberInfo } from '../../../../src/console/api-types.js';
import { getJson } from '../../api.js';

export interface RecipePanelProps {
  readonly info: Info;
  readonly path: string;
  /** Changes whenever the node or its children changed: the panel reloads. */
  readonly revision: number;
}

const POLL_MS = 2000;

/** Roles that hold the recipe (the highlight), and roles that wait for it. */
const HOLDING = new Set(['holder', 'leader', 'lease', 'owner']);
const WAITING = new Set(['waiter', 'candidate']);

/** Detail keys the inspection computed at read time; the panel counts the same thing live instead. */
const AGE_DETAILS = new Set(['holds for', 'waits for']);

type Standing = 'holding' | 'waiting' | 'other';

/** Whether a member holds, waits, or neither: by role, or for a read-write lock's readers and writers by the detail the inspection gave. */
function standingOf(m: RecipeMemberInfo): Standing {
  if (HOLDING.has(m.role)) return 'holding';
  if (WAITING.has(m.role)) return 'waiting';
  if (m.details.some(([k]) => k === 'holds for')) return 'holding';
  if (m.details.some(([k]) => k === 'waits for')) return 'waiting';
  return 'other';
}

/** "850 ms", "42 s", "3 min 05 s", "2 h 10 min", "3 d 4 h": seconds stay visible while they still matter. */
export function formatAge(ms: number): string {
  const v = Math.max(0, Math.floor(ms / 1000));
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (v < 60) return `${v} s`;
  if (v < 3600) return `${Math.floor(v / 60)} min ${String(v % 60).padStart(2, '0')} s`;
  if (v < 86_400) return `${Math.floor(v / 3600)} h ${Math.floor((v % 3600) / 60)} min`;
  return `${Math.floor(v / 86_400)} d ${Math.floor((v % 86_400) / 3600)} h`;
}

function ageText(m: RecipeMemberInfo, now: number): string {
  if (m.since === null) return '';
  const age = formatAge(now - m.since);
  const standing = standingOf(m);
  if (m.role === 'leader') return `leading for ${age}`;
  return standing === 'holding' ? `held for ${age}` : standing === 'waiting' ? `waiting for ${age}` : `age ${age}`;
}

const shownDetails = (m: RecipeMemberInfo): RecipeMemberInfo['details'] => m.details.filter(([k]) => !AGE_DETAILS.has(k));

function MemberRow({ m, index, now, withDetails }: { m: RecipeMemberInfo; index: number; now: number; withDetails: boolean }) {
  const standing = standingOf(m);
  const details = shownDetails(m);
  return (
    <tr class={`recipe-member ${standing}`} data-testid="recipe-member" data-role={m.role} data-name={m.name}>
      <td class="recipe-pos">{index + 1}</td>
      <td data-testid="member-role">
        <span class={`recipe-role ${standing}`}>{m.role}</span>
      </td>
      <td class="recipe-mono recipe-name" data-testid="member-name" title={m.path}>{m.name}</td>
      <td class="recipe-wrap" data-testid="member-owner">{m.owner ?? '—'}</td>
      <td data-testid="member-library">{m.library ?? '—'}</td>
      <td class="recipe-mono" data-testid="member-session">
        {m.session === null ? '—' : <a href={`#/sessions/?session=${encodeURIComponent(m.session)}`}>{m.session}</a>}
      </td>
      <td data-testid="member-age">{ageText(m, now)}</td>
      {withDetails ? (
        <td class="recipe-wrap" data-testid="member-details">
          {details.map(([k, v], i) => (
            <span key={i} class="recipe-detail">
              <span class="recipe-detail-key">{k}</span> {v}
            </span>
          ))}
        </td>
      ) : null}
    </tr>
  );
}

export function RecipePanel({ path, revision }: RecipePanelProps) {
  const [recipe, setRecipe] = useState<RecipeInfo | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);
  const [now, setNow] = useState(Date.now());
  // A load's answer is kept only if no later load started: answers can arrive out of order.
  const latest = useRef(0);
  const showing = useRef(false);

  useEffect(() => {
    showing.current = false;
    setRecipe(undefined);
    setFailure(undefined);
  }, [path]);

  useEffect(() => {
    const controller = new AbortController();
    const load = (): void => {
      const ticket = ++latest.current;
      getJson<RecipeInfo>('/api/recipe', { path }, controller.signal).then(
        (answer) => {
          if (ticket !== latest.current) return;
          showing.current = answer.kind !== null;
          setNow(Date.now());
          setRecipe(answer);
          setFailure(undefined);
        },
        (error: unknown) => {
          if (ticket !== latest.current || controller.signal.aborted) return;
          setFailure(error instanceof Error ? error.message : String(error));
        },
      );
    };
    load();
    const poll = setInterval(() => {
      if (showing.current && document.visibilityState === 'visible') load();
    }, POLL_MS);
    return () => {
      clearInterval(poll);
      controller.abort();
    };
  }, [path, revision]);

  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(tick);
  }, []);

  if (recipe === undefined || recipe.kind === null) {
    return failure === undefined ? null : <div class="recipe-card recipe-failed" data-testid="recipe-error">{failure}</div>;
  }
  const withDetails = recipe.members.some((m) => shownDetails(m).length > 0);
  return (
    <section class="recipe-card" data-testid="recipe-panel" data-kind={recipe.kind}>
      <header class="recipe-head">
        <span class="recipe-kind" data-testid="recipe-kind">{recipe.kind}</span>
        <span class="recipe-title" data-testid="recipe-title">{recipe.title}</span>
        {recipe.libraries.map((l) => (
          <span key={l} class="recipe-lib" data-testid="recipe-library">{l}</span>
        ))}
      </header>
      {failure === undefined ? null : <div class="recipe-failed" data-testid="recipe-error">{failure}</div>}
      {recipe.summary.length === 0 ? null : (
        <dl class="recipe-summary" data-testid="recipe-summary">
          {recipe.summary.map(([k, v], i) => (
            <div key={i} class="recipe-fact" data-testid="recipe-fact" data-key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
      {recipe.members.length === 0 ? (
        <div class="recipe-empty" data-testid="recipe-no-members">no members</div>
      ) : (
        <table class="recipe-members" data-testid="recipe-members">
          <thead>
            <tr>
              <th>#</th>
              <th>role</th>
              <th>node</th>
              <th>owner</th>
              <th>library</th>
              <th>session</th>
              <th>held / waiting</th>
              {withDetails ? <th>details</th> : null}
            </tr>
          </thead>
          <tbody>
            {recipe.members.map((m, i) => (
              <MemberRow key={m.path} m={m} index={i} now={now} withDetails={withDetails} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
