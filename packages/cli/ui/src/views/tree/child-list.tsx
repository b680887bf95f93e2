/**
 * A node's children as a virtualized list read in pages (GET /api/children): the first page on opening, the
 * pages of the visible rows as the user scrolls, and the visible pages again on each live change (`revision`).
 * A page read at another cversion than the pages held means the list moved: the others are dropped.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

import type { ChildrenPage } from '../../../../src/console/api-types.js';
import { getJson } from '../../api.js';
import { childPath, deceptiveChars, treeHref } from './format.js';
import { VirtualList } from './virtual-list.js';

export const PAGE_SIZE = 200;
export const CHILD_ROW_HEIGHT = 24;

export interface ChildListProps {
  readonly path: string;
  /** Bumped when the node's children changed. */
  readonly revision: number;
  /** Only names starting with this. */
  readonly filter: string;
}

interface Pages {
  readonly key: string;
  cversion: number | undefined;
  readonly names: Map<number, readonly string[]>;
  readonly loading: Set<number>;
  /** Pages asked for again while their read was in flight: that read may predate the change, so read once more. */
  readonly again: Set<number>;
}

export function ChildList({ path, revision, filter }: ChildListProps) {
  const key = `${path}\u0000${filter}`;
  const pages = useRef<Pages>({ key, cversion: undefined, names: new Map(), loading: new Set(), again: new Set() });
  const range = useRef<[number, number]>([0, 1]);
  const [total, setTotal] = useState<number | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [, setTick] = useState(0);

  const load = useCallback(
    function loadPage(page: number, force: boolean): void {
      const held = pages.current;
      if (held.key !== key) return;
      if (held.loading.has(page)) {
        if (force) held.again.add(page);
        return;
      }
      if (!force && held.names.has(page)) return;
      held.loading.add(page);
      const settled = (): void => {
        held.loading.delete(page);
        if (held.again.delete(page) && pages.current === held) loadPage(page, true);
      };
      const params = { path, offset: page * PAGE_SIZE, limit: PAGE_SIZE, prefix: filter === '' ? undefined : filter };
      getJson<ChildrenPage>('/api/children', params).then(
        (reply) => {
          settled();
          if (pages.current !== held) return;
          if (held.cversion !== reply.cversion) {
            held.names.clear();
            held.cversion = reply.cversion;
          }
          held.names.set(page, reply.names);
          setError(undefined);
          setTotal(reply.total);
          setTick((t) => t + 1);
          // Rows in view whose page went with the old cversion.
          loadRange(range.current, false);
        },
        (failure: unknown) => {
          settled();
          if (pages.current !== held) return;
          setError(failure instanceof Error ? failure.message : String(failure));
        },
      );
    },
    // loadRange (below) is made from this same render's `load`, so it needs no dependency of its own.
    [key],
  );

  const loadRange = useCallback(
    ([start, end]: [number, number], force: boolean): void => {
      const from = Math.floor(start / PAGE_SIZE);
      const to = Math.floor(Math.max(start, end - 1) / PAGE_SIZE);
      for (let page = from; page <= to; page++) load(page, force);
    },
    [load],
  );

  useEffect(() => {
    pages.current = { key, cversion: undefined, names: new Map(), loading: new Set(), again: new Set() };
    range.current = [0, 1];
    setTotal(undefined);
    setError(undefined);
    load(0, false);
  }, [key, load]);

  useEffect(() => {
    if (revision === 0) return;
    loadRange(range.current, true);
  }, [revision, loadRange]);

  const onRange = useCallback(
    (start: number, end: number) => {
      range.current = [start, end];
      loadRange([start, end], false);
    },
    [loadRange],
  );

  const renderRow = (index: number) => {
    const name = pages.current.names.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
    if (name === undefined) return <span class="child pending">…</span>;
    const hidden = deceptiveChars(name);
    return (
      <a class="child" href={treeHref(childPath(path, name))} title={name} data-testid="child-row">
        <span class="child-name" data-testid="child-name">
          {name}
        </span>
        {hidden.length === 0 ? null : (
          <span class="tree-warn" title={`this name holds invisible or direction characters: ${hidden.join(' ')}`} data-testid="child-hidden-chars">
            {` ⚠ ${hidden.join(' ')}`}
          </span>
        )}
      </a>
    );
  };

  return (
    <div class="tree-children">
      <div class="tree-count" data-testid="child-count">
        {error !== undefined ? <span class="tree-error">{error}</span> : total === undefined ? 'loading…' : `${total.toLocaleString('en-US')} ${filter === '' ? '' : 'matching '}children`}
      </div>
      {total === 0 ? <div class="tree-empty" data-testid="no-children">no children</div> : null}
      <VirtualList count={total ?? 0} rowHeight={CHILD_ROW_HEIGHT} renderRow={renderRow} onRange={onRange} resetKey={key} testid="child-list" class="tree-list" />
    </div>
  );
}
