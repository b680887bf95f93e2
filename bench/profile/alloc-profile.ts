// What the allocation profiles (connect-alloc.ts, get-alloc.ts) share: V8's sampling heap profiler run over a
// piece of work with the objects the minor and major GCs collected kept (garbage is work too), and the table it
// prints: bytes per unit of work, summed per allocating function (PARENT=1: per caller > function).
import type { Session } from 'node:inspector/promises';

export interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  callFrame: Frame;
  selfSize: number;
  children: ProfileNode[];
}

/** `function file:line`, the file with its folder. */
export const label = (f: Frame): string => `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;

/** Runs `work` under the sampling heap profiler and prints what it allocated per unit (`units` of them), largest first. */
export async function printAllocations(inspector: Session, work: () => Promise<void>, units: number, title: string, top: number): Promise<void> {
  await inspector.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await work();
  const { profile } = (await inspector.post('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
  const bytes = new Map<string, number>();
  let total = 0;
  const walk = (node: ProfileNode, parent: string): void => {
    const key = process.env['PARENT'] === '1' ? `${parent} > ${label(node.callFrame)}` : label(node.callFrame);
    total += node.selfSize;
    bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
    for (const child of node.children) walk(child, label(node.callFrame));
  };
  walk(profile.head, '');
  console.log(`${title} ${(total / units).toFixed(0)} B`);
  for (const [key, b] of [...bytes].sort((x, y) => y[1] - x[1]).slice(0, top)) console.log(`${(b / units).toFixed(0).padStart(7)}  ${key}`);
}
