/**
 * The reading ruler (docs/reading-aids.md): over the passage, a band of 1, 2 or 3 lines stays clear and the
 * rest is dimmed. The band follows the pointer over the text; it is also a vertical slider in the tab order, moved a
 * line at a time with ArrowUp and ArrowDown (Home and End: the first and last lines). Which lines the band covers
 * is src/domain/readingRuler.ts's rule; this view measures the lines (the text's boxes) and draws the band.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { mergeProps, useFocusRing, useKeyboard } from 'react-aria';
import { rulerBand, startForKey, startForPointer, textLines, type LineBox } from '../../../domain/readingRuler';

/** The band reaches this far past its lines' boxes, so ascenders and descenders are never dimmed. */
const BAND_MARGIN_PX = 4;

/** The boxes of the text's own lines: each text node's (a range over an element would add the element's whole box). */
function textBoxes(root: HTMLElement): DOMRect[] {
  const boxes: DOMRect[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.nodeValue?.trim()) continue;
    range.selectNodeContents(node);
    boxes.push(...range.getClientRects());
  }
  return boxes;
}

export function ReadingRuler({ textRef, lineCount, html }: { textRef: RefObject<HTMLElement | null>; lineCount: number; html: string }) {
  const layerRef = useRef<HTMLDivElement>(null);
  const bandRef = useRef<HTMLDivElement>(null);
  const [lines, setLines] = useState<LineBox[]>([]);
  const [start, setStart] = useState(0);

  // The lines of the text, in the layer's coordinates: again when the text or the column's width changes.
  useLayoutEffect(() => {
    const text = textRef.current;
    const layer = layerRef.current;
    if (!text || !layer) return;
    const measure = () => {
      const origin = layer.getBoundingClientRect().top;
      setLines(textLines(textBoxes(text).map((r) => ({ top: r.top - origin, bottom: r.bottom - origin }))));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(text);
    return () => observer.disconnect();
  }, [textRef, html]);

  // A new passage starts with the band on its first lines.
  useLayoutEffect(() => setStart(0), [html]);

  // The band follows the pointer over the text.
  useEffect(() => {
    const text = textRef.current;
    const layer = layerRef.current;
    if (!text || !layer) return;
    const follow = (event: PointerEvent) => setStart(startForPointer(lines, event.clientY - layer.getBoundingClientRect().top, lineCount));
    text.addEventListener('pointermove', follow);
    return () => text.removeEventListener('pointermove', follow);
  }, [textRef, lines, lineCount]);

  const move = useCallback(
    (key: string) => {
      const next = startForKey(key, start, lines.length, lineCount);
      if (next === null) return false;
      setStart(next);
      return true;
    },
    [start, lines.length, lineCount],
  );
  const { keyboardProps } = useKeyboard({
    onKeyDown: (event) => {
      if (!move(event.key)) {
        event.continuePropagation();
        return;
      }
      event.preventDefault();
    },
  });
  const { focusProps, isFocusVisible } = useFocusRing();

  // Moved from the keyboard, the band stays in view.
  useEffect(() => {
    if (bandRef.current && document.activeElement === bandRef.current) bandRef.current.scrollIntoView?.({ block: 'nearest' });
  }, [start]);

  const band = rulerBand(lines, start, lineCount);
  const top = band ? Math.max(0, band.top - BAND_MARGIN_PX) : 0;
  const bottom = band ? band.bottom + BAND_MARGIN_PX : 0;
  const last = Math.min(lines.length, start + lineCount);
  const valueText = lines.length === 0 ? 'No lines' : lineCount === 1 || last === start + 1 ? `Line ${start + 1} of ${lines.length}` : `Lines ${start + 1} to ${last} of ${lines.length}`;
  const moves = 'motion-safe:transition-[top,height] motion-safe:duration-100 motion-safe:ease-out';

  return (
    <div ref={layerRef} data-reading-ruler="" className="pointer-events-none absolute inset-0">
      {band && (
        <>
          <div data-ruler-dim="above" className={`absolute inset-x-0 top-0 bg-paper/80 ${moves}`} style={{ height: top }} />
          <div data-ruler-dim="below" className={`absolute inset-x-0 bottom-0 bg-paper/80 ${moves}`} style={{ top: bottom }} />
        </>
      )}
      <div
        ref={bandRef}
        {...mergeProps(keyboardProps, focusProps)}
        tabIndex={0}
        role="slider"
        aria-label="Reading ruler"
        aria-orientation="vertical"
        aria-valuemin={1}
        aria-valuemax={Math.max(1, lines.length)}
        aria-valuenow={start + 1}
        aria-valuetext={valueText}
        data-focus-visible={isFocusVisible || undefined}
        className={`absolute -inset-x-2 rounded-md border-y-2 border-primary-600/40 outline-none data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-focus ${moves}`}
        style={{ top, height: Math.max(0, bottom - top) }}
      />
    </div>
  );
}
