/**
 * GET /api/recipe?path=P: the recipe a node's layout shows, read by @zkts/recipes' inspectRecipe and mapped to
 * the JSON contract's RecipeInfo (bigint sessions as `0x…` hex, absent facts as null). A node of no known layout,
 * one that is gone, or one with a child this session may not read answers `{ kind: null }` rather than an error:
 * the page asks about every node it shows, and an ensemble's root often holds other applications' private nodes.
 * The node itself unreadable stays an error (403), as its detail is.
 */
import { ServerError, validatePath, type ZkClient } from '@zkts/protocol';
import { inspectRecipe, type RecipeInspection, type RecipeMember } from '@zkts/recipes';

import { hexId } from '../../ids.js';
import { badRequest } from '../api-error.js';
import type { RecipeInfo, RecipeMemberInfo } from '../api-types.js';
import type { Route } from '../router.js';

export interface RecipeDeps {
  readonly client: ZkClient;
  /** ms since the epoch, for the inspection's ages (default Date.now). */
  readonly now?: () => number;
}

function memberInfo(m: RecipeMember): RecipeMemberInfo {
  return {
    role: m.role,
    name: m.name,
    path: m.path,
    sequence: m.sequence ?? null,
    owner: m.owner ?? null,
    library: m.library ?? null,
    session: m.session === undefined ? null : hexId(m.session),
    since: m.since ?? null,
    details: m.details.map(([k, v]) => [k, v] as const),
  };
}

/** The inspection as the page reads it; undefined (no known layout) as `kind: null`. */
export function recipeInfo(path: string, found: RecipeInspection | undefined): RecipeInfo {
  if (found === undefined) return { kind: null, path, libraries: [], title: '', summary: [], members: [] };
  return {
    kind: found.kind,
    path: found.path,
    libraries: [...found.libraries],
    title: found.title,
    summary: found.summary.map(([k, v]) => [k, v] as const),
    members: found.members.map(memberInfo),
  };
}

/** The `path` parameter, refused (400) unless it is a ZooKeeper path the server would accept. */
function pathParameter(query: URLSearchParams): string {
  const path = query.get('path');
  if (path === null) throw badRequest('path is required');
  try {
    validatePath(path);
  } catch (error) {
    throw badRequest(`bad path: ${error instanceof Error ? error.message : String(error)}`);
  }
  return path;
}

/** The inspection of `path` met a node under it that this session may not read (not `path` itself). */
function unreadableChild(error: unknown, path: string): boolean {
  return error instanceof ServerError && error.code === 'NO_AUTH' && error.path !== undefined && error.path !== path;
}

export function recipeRoutes(deps: RecipeDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/api/recipe',
      handle: async ({ query, signal }): Promise<RecipeInfo> => {
        const path = pathParameter(query);
        const options = deps.now === undefined ? { signal } : { signal, now: deps.now };
        try {
          return recipeInfo(path, await inspectRecipe(deps.client, path, options));
        } catch (error) {
          if (unreadableChild(error, path)) return recipeInfo(path, undefined);
          throw error;
        }
      },
    },
  ];
}
