/**
 * Search by path prefix (GET /api/search): type `/app/lo` and pick among the children of `/app` starting
 * with `lo`; Enter opens the first result (or the typed path).
 */
import { useEffect, useState } from 'preact/hooks';

import type { SearchResult } from '../../../../src/console/api-types.js';
import { getJson } from '../../api.js';
import { treeHref } from './format.js';

const DEBOUNCE_MS = 150;

export function SearchBox() {
  const [text, setText] = useState('');
  const [result, setResult] = useState<SearchResult | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);

  useEffect(() => {
    if (!text.startsWith('/')) {
      setResult(undefined);
      setError(undefined);
      return undefined;
    }
    const aborter = new AbortController();
    const timer = setTimeout(() => {
      getJson<SearchResult>('/api/search', { prefix: text, limit: 50 }, aborter.signal).then(
        (reply) => {
          setResult(reply);
          setError(undefined);
        },
        (failure: unknown) => {
          if (!aborter.signal.aborted) setError(failure instanceof Error ? failure.message : String(failure));
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      aborter.abort();
    };
  }, [text]);

  const go = (path: string): void => {
    location.hash = treeHref(path);
    setText('');
  };

  return (
    <div class="tree-search">
      <input
        type="search"
        placeholder="search: /path/prefix"
        value={text}
        spellcheck={false}
        data-testid="search-input"
        onInput={(event) => setText((event.currentTarget as HTMLInputElement).value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && text.startsWith('/')) go(result?.paths[0] ?? text);
          if (event.key === 'Escape') setText('');
        }}
      />
      {error !== undefined ? <div class="tree-error">{error}</div> : null}
      {result !== undefined && text !== '' ? (
        <ul class="tree-results" data-testid="search-results">
          {result.paths.length === 0 ? <li class="tree-muted">no match</li> : null}
          {result.paths.map((path) => (
            <li key={path}>
              <a href={treeHref(path)} onClick={() => setText('')} data-testid="search-result">
                {path}
              </a>
            </li>
          ))}
          {result.truncated ? <li class="tree-muted">more… (type more of the name)</li> : null}
        </ul>
      ) : null}
    </div>
  );
}
