/**
 * A scrolling list of fixed-height rows that puts only the visible rows (plus a few) in the DOM: a node's
 * 100,000 children or a megabyte's 65,536 hex lines cost as much as one screen. The spacer has the full
 * height, so the scroll bar is true; rows are positioned absolutely at index × rowHeight.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

export interface VirtualListProps {
  readonly count: number;
  /** px */
  readonly rowHeight: number;
  readonly renderRow: (index: number) => ComponentChildren;
  /** Told the visible index range [start, end) whenever it changes. */
  readonly onRange?: (start: number, end: number) => void;
  /** A new key scrolls back to the top (another node). */
  readonly resetKey?: string;
  readonly class?: string;
  readonly testid?: string;
  /** px: a fixed height (CSS may cap it), for a list that should shrink to few rows. */
  readonly height?: number;
}

const OVERSCAN = 8;

export function VirtualList(props: VirtualListProps) {
  const { count, rowHeight, renderRow, onRange, resetKey } = props;
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useLayoutEffect(() => {
    const element = box.current;
    if (element === null) return undefined;
    setHeight(element.clientHeight || 600);
    const observer = new ResizeObserver(() => setHeight(element.clientHeight || 600));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    if (box.current !== null) box.current.scrollTop = 0;
    setScrollTop(0);
  }, [resetKey]);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN);
  const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
  const visibleStart = Math.min(count, Math.floor(scrollTop / rowHeight));
  const visibleEnd = Math.min(count, Math.ceil((scrollTop + height) / rowHeight));

  useEffect(() => {
    onRange?.(visibleStart, visibleEnd);
  }, [visibleStart, visibleEnd, onRange]);

  const rows: ComponentChildren[] = [];
  for (let i = first; i < last; i++) {
    rows.push(
      <div key={i} class="vrow" style={{ top: `${i * rowHeight}px`, height: `${rowHeight}px` }} data-index={i}>
        {renderRow(i)}
      </div>,
    );
  }
  return (
    <div
      ref={box}
      class={`vlist ${props.class ?? ''}`}
      style={props.height === undefined ? undefined : { height: `${props.height}px` }}
      data-testid={props.testid}
      onScroll={(event) => setScrollTop((event.currentTarget as HTMLDivElement).scrollTop)}
    >
      <div class="vspacer" style={{ height: `${count * rowHeight}px` }}>
        {rows}
      </div>
    </div>
  );
}
