/**
 * The console's top-level views, in tab order. Each view is a component taking the console's Info and the
 * rest of the location hash (`#/<id>/<rest>`); `enabled` hides a view the console was started without.
 */
import type { ComponentType } from 'preact';

import type { Info } from '../../../src/console/api-types.js';

export interface ViewProps {
  readonly info: Info;
  /** The hash after `#/<id>`, e.g. `/app/locks` for `#/tree/app/locks`. */
  readonly rest: string;
}

export interface View {
  readonly id: string;
  readonly title: string;
  readonly enabled: (info: Info) => boolean;
  readonly component: ComponentType<ViewProps>;
}

const views: View[] = [];

export function registerView(view: View): void {
  views.push(view);
}

export function allViews(): readonly View[] {
  return views;
}
