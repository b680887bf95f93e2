/**
 * Reading the tree: GET /api/children (one page of a node's sorted child names, from children-cache.ts),
 * /api/node (data, Stat and ACL), /api/search (paths by prefix). Every path is checked before it reaches the
 * client: a malformed one is the caller's mistake (400 BAD_REQUEST), a missing node ZooKeeper's (404 NO_NODE).
 */
import { parentPath, validatePath, ZkError, type ZkClient } from '@zkts/protocol';

import { badRequest } from '../api-error.js';
import type { ChildrenPage, NodeInfo, SearchResult } from '../api-types.js';
import { changeHubFor } from '../change-hub.js';
import { ChildrenCache, prefixRange } from '../children-cache.js';
import { aclEntries, statInfo } from '../node-json.js';
import type { Route } from '../router.js';

export interface TreeDeps {
  readonly client: ZkClient;
}

export const MAX_PAGE = 1000;
const DEFAULT_PAGE = 200;
const DEFAULT_SEARCH = 50;

function pathParam(query: URLSearchParams, name: string): string {
  const path = query.get(name);
  if (path === null) throw badRequest(`the ${name} parameter is missing`);
  try {
    validatePath(path);
  } catch (error) {
    throw badRequest(error instanceof Error ? error.message : String(error));
  }
  return path;
}

function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  if (!/^\d+$/.test(text)) throw badRequest(`${name} must be a whole number, not ${JSON.stringify(text)}`);
  const value = Number(text);
  if (value < min || value > max) throw badRequest(`${name} must be between ${min} and ${max}`);
  return value;
}

function nameFilter(query: URLSearchParams): string {
  const prefix = query.get('prefix') ?? '';
  if (prefix.includes('/')) throw badRequest('a name prefix has no /');
  return prefix;
}

function isNoNode(error: unknown): boolean {
  return error instanceof ZkError && error.code === 'NO_NODE';
}

export function treeRoutes(deps: TreeDeps): Route[] {
  const { client } = deps;
  const cache = new ChildrenCache(client);
  changeHubFor(client).observe((type, path) => {
    if (type !== 'data') cache.invalidate(parentPath(path));
    if (type === 'deleted') cache.invalidate(path);
  });

  const children = async (query: URLSearchParams, signal: AbortSignal): Promise<ChildrenPage> => {
    const path = pathParam(query, 'path');
    const offset = intParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const limit = intParam(query, 'limit', DEFAULT_PAGE, 1, MAX_PAGE);
    const prefix = nameFilter(query);
    const list = await cache.get(path, signal);
    const [start, end] = prefixRange(list.names, prefix);
    const from = Math.min(start + offset, end);
    return { path, total: end - start, offset, names: list.names.slice(from, Math.min(from + limit, end)), cversion: list.cversion };
  };

  const node = async (query: URLSearchParams, signal: AbortSignal): Promise<NodeInfo> => {
    const path = pathParam(query, 'path');
    const [{ data, stat }, { acl }] = await Promise.all([client.getData(path, { signal }), client.getACL(path, { signal })]);
    return { path, stat: statInfo(stat), data: data.toString('base64'), acl: aclEntries(acl) };
  };

  const search = async (query: URLSearchParams, signal: AbortSignal): Promise<SearchResult> => {
    const prefix = query.get('prefix') ?? '';
    if (!prefix.startsWith('/')) throw badRequest('a search prefix starts with /');
    const limit = intParam(query, 'limit', DEFAULT_SEARCH, 1, MAX_PAGE);
    const cut = prefix.lastIndexOf('/');
    let parent = cut === 0 ? '/' : prefix.slice(0, cut);
    let segment = prefix.slice(cut + 1);
    try {
      validatePath(parent);
    } catch (error) {
      throw badRequest(error instanceof Error ? error.message : String(error));
    }
    // The deepest parent that exists: what the user typed past it cannot match, its siblings are the nearest.
    for (;;) {
      try {
        const list = await cache.get(parent, signal);
        const [start, end] = prefixRange(list.names, segment);
        const base = parent === '/' ? '' : parent;
        const names = list.names.slice(start, Math.min(end, start + limit));
        return { prefix, paths: names.map((name) => `${base}/${name}`), truncated: end - start > limit };
      } catch (error) {
        if (!isNoNode(error) || parent === '/') throw error;
        segment = parent.slice(parent.lastIndexOf('/') + 1);
        parent = parentPath(parent);
      }
    }
  };

  return [
    { method: 'GET', path: '/api/children', handle: ({ query, signal }) => children(query, signal) },
    { method: 'GET', path: '/api/node', handle: ({ query, signal }) => node(query, signal) },
    { method: 'GET', path: '/api/search', handle: ({ query, signal }) => search(query, signal) },
  ];
}
