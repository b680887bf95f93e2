// Shared by the Curator queue tests: the UTF-8 serializer both sides of a queue use (Curator's test process
// uses the same encoding).
import type { QueueSerializer } from '@zkts/recipes';

export const utf8: QueueSerializer<string> = {
  serialize: (s) => new TextEncoder().encode(s),
  deserialize: (b) => new TextDecoder().decode(b),
};
