/** A node's recipe, when its layout is a known one (GET /api/recipe). */
import type { Info } from '../../../../src/console/api-types.js';

export interface RecipePanelProps {
  readonly info: Info;
  readonly path: string;
  /** Changes whenever the node or its children changed: the panel reloads. */
  readonly revision: number;
}

export function RecipePanel(_props: RecipePanelProps) {
  return null;
}
