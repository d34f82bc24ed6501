/**
 * Tap a word to hear it (docs/reading-aids.md "Tap a word"): the passage's side of word mode. With
 * word mode on, a tap on a word sends its column 'word.say' (Shift+tap: 'word.playFrom'); the passage text is one
 * tab stop whose arrow keys move a word cursor, Enter says the cursor's word and Shift+Enter plays from it; a right
 * click, a long press (the contextmenu event touch browsers send), the ContextMenu key or Shift+F10 open a menu of
 * 'Say this word' and 'Play from here'. Everything else (the gates, the player, waiting for narration) is the
 * engine's.
 *
 * The events carry an offset into the passage's plain text (src/domain/sanitize.ts passagePlainText). A tap's DOM
 * position becomes an offset of the rendered text with mapPassageText's `offsetOf`; when the rendering's text is
 * not the plain text (decoded markup that differs), the word is found by its place among the words
 * (`mapWordOffset`). Which word holds an offset, and the cursor's next word, are src/domain/wordAudio.ts's.
 *
 * The cursor and the word being said are drawn with the CSS Custom Highlight API (wordMode.css), so the passage's
 * DOM is never changed. The text element carries data-word-state ('waiting' | 'speaking' while the engine says a
 * word of this column), data-word-start/-end (that word, in plain-text offsets) and data-word-cursor (the cursor's
 * word start, in the rendering's offsets), for tests.
 */
import { Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, type HTMLAttributes, type ReactNode, type RefObject } from 'react';
import { mergeProps, useFocusRing } from 'react-aria';
import { passagePlainText } from '../../../domain/sanitize';
import type { TextSpan } from '../../../domain/speechMarks';
import { stepWord, wordAt } from '../../../domain/wordAudio';
import type { Slot } from '../../../machines/readingSession';
import { useChildSend, useEngine } from '../../engine/useEngine';
import { mapPassageText, mapWordOffset, type PassageTextMap } from './passageRanges';
import { highlightNamed } from './useSpeechHighlight';
import { lazyPart } from '../../components/lazyPart';
import './wordMode.css';

/** 'Say this word' / 'Play from here', a chunk of its own (WordMenu.tsx). */
export const WordMenu = lazyPart(() => import('./WordMenu').then((m) => m.WordMenu));

/** The highlights' names; wordMode.css styles them. */
export const WORD_CURSOR_HIGHLIGHT = 'lectern-word-cursor';
export const WORD_SAID_HIGHLIGHT = 'lectern-word-said';

/** The passage text's accessible name and description in word mode. */
export const WORD_MODE_LABEL = 'Words';
export const WORD_MODE_DESCRIPTION = 'Use the arrow keys to choose a word, Enter to hear it, Shift+Enter to play from it';

/** The passage text's look in word mode: a pointer over the words and a focus ring when reached by keyboard. */
const WORD_MODE_TEXT_CLASS =
  'cursor-pointer rounded-md outline-none data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-offset-4 data-[focus-visible]:outline-focus';

/** The space the reader's fixed bottom bar takes over the page, kept clear when the cursor is scrolled into view. */
const BOTTOM_BAR_PX = 128;
const TOP_MARGIN_PX = 80;

type WordState = 'idle' | 'waiting' | 'speaking';

/** The engine's word for this column: its state and plain-text span (start -1: none). */
interface SaidWord {
  state: WordState;
  start: number;
  end: number;
}
const NOT_SAYING: SaidWord = { state: 'idle', start: -1, end: -1 };

/** A word of the rendering (offsets into the rendered text), with the rendering it belongs to. */
interface RenderedWord extends TextSpan {
  html: string;
  text: string;
}

/** The DOM position under a point: the text node and the offset, by caretPositionFromPoint (or caretRangeFromPoint). */
function caretAt(x: number, y: number): { node: Node; offset: number } | null {
  const doc = document as Document & { caretRangeFromPoint?: (x: number, y: number) => Range | null };
  if (typeof doc.caretPositionFromPoint === 'function') {
    const p = doc.caretPositionFromPoint(x, y);
    return p ? { node: p.offsetNode, offset: p.offset } : null;
  }
  if (typeof doc.caretRangeFromPoint === 'function') {
    const r = doc.caretRangeFromPoint(x, y);
    return r ? { node: r.startContainer, offset: r.startOffset } : null;
  }
  return null;
}

/** The character of the text node whose box holds the point: the one after the caret or the one before it. */
function characterAt(node: Node, offset: number, x: number, y: number): number | null {
  if (node.nodeType !== Node.TEXT_NODE) return null;
  const length = (node as Text).length;
  const range = document.createRange();
  for (const c of [offset, offset - 1]) {
    if (c < 0 || c >= length) continue;
    range.setStart(node, c);
    range.setEnd(node, c + 1);
    for (const r of range.getClientRects()) if (x >= r.left - 1 && x <= r.right + 1 && y >= r.top - 1 && y <= r.bottom + 1) return c;
  }
  return null;
}

/** Whether the reader has text selected (a click that ends a drag is a selection, not a tap). */
function hasSelection(): boolean {
  const selection = window.getSelection();
  return !!selection && !selection.isCollapsed;
}

export function useWordMode({
  textRef,
  slot,
  enabled,
  html,
  passageText,
  locale,
  rightToLeft,
}: {
  /** The rendered passage text. */
  textRef: RefObject<HTMLElement | null>;
  slot: Slot;
  /** Word mode is on (the reader setting). */
  enabled: boolean;
  /** The HTML rendered in the text element (the passage, or its decoded markup). */
  html: string;
  /** The passage's own text (passage.text), whose plain text the events' offsets index into. */
  passageText: string;
  locale: string;
  rightToLeft: boolean;
}): { textProps: HTMLAttributes<HTMLElement> & Record<`data-${string}`, string | undefined>; overlay: ReactNode } {
  const send = useChildSend(`column.${slot}`);
  const said = useEngine((s): SaidWord => {
    const w = s.wordAudio;
    if (w.status === 'idle' || w.slot !== slot) return NOT_SAYING;
    return { state: w.status, start: w.word?.start ?? -1, end: w.word?.end ?? -1 };
  });
  const plain = useMemo(() => passagePlainText(passageText), [passageText]);
  const descriptionId = useId();
  const { focusProps, isFocusVisible } = useFocusRing();

  // The rendering's text map, made again when the rendering changes.
  const mapCache = useRef<{ el: HTMLElement; html: string; map: PassageTextMap } | null>(null);
  const textMap = useCallback((): PassageTextMap | null => {
    const el = textRef.current;
    if (!el) return null;
    if (mapCache.current?.el !== el || mapCache.current.html !== html) mapCache.current = { el, html, map: mapPassageText(el) };
    return mapCache.current.map;
  }, [textRef, html]);

  // The word cursor and the open menu belong to one rendering: a new passage (or decode turned on) drops them.
  const [cursorState, setCursorState] = useState<RenderedWord | null>(null);
  const cursor = cursorState?.html === html ? cursorState : null;
  const [menuState, setMenuState] = useState<{ word: RenderedWord; box: { left: number; top: number; width: number; height: number } } | null>(null);
  const menu = menuState?.word.html === html ? menuState : null;
  const movedByKey = useRef(false);
  const anchorRef = useRef<HTMLSpanElement>(null);

  const renderedWord = useCallback(
    (map: PassageTextMap, span: TextSpan | null): RenderedWord | null => (span ? { ...span, html, text: map.text.slice(span.start, span.end) } : null),
    [html],
  );

  /** The rendering's word under a point, or null (a space, punctuation, a margin). */
  const wordAtPoint = useCallback(
    (x: number, y: number): RenderedWord | null => {
      const map = textMap();
      const caret = caretAt(x, y);
      if (!map || !caret || !textRef.current?.contains(caret.node)) return null;
      const c = characterAt(caret.node, caret.offset, x, y);
      const offset = c === null ? null : map.offsetOf(caret.node, c);
      return offset === null ? null : renderedWord(map, wordAt(map.text, locale, offset));
    },
    [textMap, textRef, renderedWord, locale],
  );

  /** Say the word, or play from it: its offset in the passage's plain text, when the plain text has that word. */
  const act = useCallback(
    (word: RenderedWord, playFrom: boolean) => {
      const map = textMap();
      if (!map) return;
      const offset = mapWordOffset(map.text, plain, locale, word.start);
      const target = offset === null ? null : wordAt(plain, locale, offset);
      if (!target) return;
      send({ type: playFrom ? 'word.playFrom' : 'word.say', offset: target.start });
    },
    [textMap, plain, locale, send],
  );

  const openMenu = useCallback(
    (word: RenderedWord) => {
      const map = textMap();
      const el = textRef.current;
      const frame = el?.parentElement;
      const range = map?.range(word.start, word.end);
      if (!el || !frame || !range) return;
      const origin = frame.getBoundingClientRect();
      // The word's first line box (a word broken over two lines opens its menu under its start).
      const r = range.getClientRects()[0] ?? range.getBoundingClientRect();
      setMenuState({ word, box: { left: r.left - origin.left, top: r.top - origin.top, width: r.width, height: r.height } });
    },
    [textMap, textRef],
  );

  // The cursor, drawn while the text has keyboard focus; moved by a key, it is scrolled into view.
  useEffect(() => {
    const highlight = highlightNamed(WORD_CURSOR_HIGHLIGHT);
    const map = textMap();
    if (!enabled || !isFocusVisible || !cursor || !map) return;
    const range = map.range(cursor.start, cursor.end);
    if (!range) return;
    highlight?.add(range);
    if (movedByKey.current) {
      movedByKey.current = false;
      const box = range.getBoundingClientRect();
      if (box.top < TOP_MARGIN_PX || box.bottom > window.innerHeight - BOTTOM_BAR_PX) window.scrollBy({ top: box.top - window.innerHeight / 3 });
    }
    return () => {
      highlight?.delete(range);
    };
  }, [enabled, isFocusVisible, cursor, textMap]);

  // The word the engine says in this column.
  useEffect(() => {
    const highlight = highlightNamed(WORD_SAID_HIGHLIGHT);
    const map = textMap();
    if (said.state === 'idle' || said.start < 0 || !map) return;
    const offset = mapWordOffset(plain, map.text, locale, said.start);
    const word = offset === null ? null : wordAt(map.text, locale, offset);
    const range = word ? map.range(word.start, word.end) : null;
    if (!range) return;
    highlight?.add(range);
    return () => {
      highlight?.delete(range);
    };
  }, [said, plain, locale, textMap]);

  // Word mode on: its menu's chunk is fetched now, so a right click opens it at once.
  useEffect(() => {
    if (enabled) void WordMenu.preload();
  }, [enabled]);

  const setCursor = (span: TextSpan | null, byKey: boolean) => {
    const map = textMap();
    const word = map ? renderedWord(map, span) : null;
    if (!word) return;
    movedByKey.current = byKey;
    setCursorState(word);
  };

  const shown = {
    'data-word-state': said.state === 'idle' ? undefined : said.state,
    'data-word-start': said.start >= 0 ? String(said.start) : undefined,
    'data-word-end': said.end >= 0 ? String(said.end) : undefined,
  };
  if (!enabled) return { textProps: shown, overlay: null };

  const handlers: HTMLAttributes<HTMLElement> = {
    onFocus: () => {
      if (cursor) return;
      const map = textMap();
      if (map) setCursor(stepWord(map.text, locale, null, 0), false);
    },
    onMouseDown: (event) => {
      // Shift+click plays from the word: keep the browser from extending a selection to it.
      if (event.button === 0 && event.shiftKey) event.preventDefault();
    },
    onClick: (event) => {
      if (event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || hasSelection()) return;
      const word = wordAtPoint(event.clientX, event.clientY);
      if (!word) return;
      setCursor(word, false);
      act(word, event.shiftKey);
    },
    onContextMenu: (event) => {
      if (menu) {
        event.preventDefault();
        return;
      }
      if (hasSelection()) return; // the browser's own menu, to copy the selection
      // From the keyboard (the ContextMenu key), the event has no point on a word: the cursor's word.
      const word = wordAtPoint(event.clientX, event.clientY) ?? (document.activeElement === textRef.current ? cursor : null);
      if (!word) return;
      event.preventDefault();
      setCursor(word, false);
      openMenu(word);
    },
    onKeyDown: (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const map = textMap();
      if (!map) return;
      const forward = rightToLeft ? 'ArrowLeft' : 'ArrowRight';
      const back = rightToLeft ? 'ArrowRight' : 'ArrowLeft';
      let next: TextSpan | null | undefined;
      if (event.key === forward) next = stepWord(map.text, locale, cursor?.start ?? null, cursor ? 1 : 0);
      else if (event.key === back) next = stepWord(map.text, locale, cursor?.start ?? null, cursor ? -1 : 0);
      else if (event.key === 'Home') next = stepWord(map.text, locale, null, 0);
      else if (event.key === 'End') next = stepWord(map.text, locale, 0, Number.MAX_SAFE_INTEGER);
      if (next !== undefined) {
        event.preventDefault();
        setCursor(next, true);
        return;
      }
      if (!cursor) return;
      if (event.key === 'Enter') {
        event.preventDefault();
        act(cursor, event.shiftKey);
      } else if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
        event.preventDefault();
        openMenu(cursor);
      }
    },
  };

  const textProps = {
    ...mergeProps(focusProps, handlers),
    ...shown,
    tabIndex: 0,
    role: 'group',
    'aria-label': WORD_MODE_LABEL,
    'aria-describedby': descriptionId,
    'data-word-mode': '',
    // Arrow keys move the word cursor here, not the page (readerHooks.ts useArrowKeyPaging).
    'data-own-arrows': '',
    'data-word-cursor': cursor ? String(cursor.start) : undefined,
    'data-focus-visible': isFocusVisible ? 'true' : undefined,
    className: WORD_MODE_TEXT_CLASS,
  };

  const overlay = (
    <>
      <span id={descriptionId} hidden>
        {WORD_MODE_DESCRIPTION}
      </span>
      {/* The cursor's word, read out as it moves. */}
      <span className="sr-only" aria-live="polite">
        {isFocusVisible && cursor ? cursor.text : ''}
      </span>
      <span
        ref={anchorRef}
        aria-hidden="true"
        className="pointer-events-none absolute"
        style={menu ? { left: menu.box.left, top: menu.box.top, width: menu.box.width, height: menu.box.height } : { left: 0, top: 0 }}
      />
      {/* The word menu's chunk (React Aria's popover and menu) is fetched when word mode turns on. */}
      {menu && (
        <Suspense fallback={null}>
          <WordMenu
            anchorRef={anchorRef}
            word={menu.word.text}
            onAction={(playFrom) => act(menu.word, playFrom)}
            onClose={() => setMenuState(null)}
          />
        </Suspense>
      )}
    </>
  );
  return { textProps, overlay };
}
