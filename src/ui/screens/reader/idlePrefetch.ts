/**
 * What the reader fetches once it is interactive, while the browser is idle (docs/decisions.md "What the reader
 * fetches later"): the chunks of the parts it has not shown yet, most likely first. None of them is in the
 * reader's start-up; each still loads on its own when it is used before its turn here.
 */
import { useEffect } from 'react';
import { inIdlePeriods } from '../../platform/idle';
import { PremiumDialogPanel } from './ReaderOverlays';
import { AudioPlayerBar } from './ReaderAudioPlayer';
import { WordMenu } from './WordMode';
import { DecodeLegend, GroupCodePanel, ReadingRuler } from './ReaderColumn';

const STEPS: readonly (() => Promise<unknown>)[] = [
  // The open player (Listen, the first thing most readers try).
  AudioPlayerBar.preload,
  // The toolbar's dropdowns and dialogs, and the columns' language and level dropdowns.
  () => import('./ToolbarSelects'),
  () => import('./ToolbarDialogs'),
  () => import('./LanguageSelect'),
  () => import('./LevelSelect'),
  PremiumDialogPanel.preload,
  WordMenu.preload,
  // The reading aids' parts, and a locked passage's panels (a turn can reach one).
  DecodeLegend.preload,
  ReadingRuler.preload,
  GroupCodePanel.preload,
];

/** Once `ready` (the reader shows its passage), fetches the parts not yet shown, one per idle period. */
export function useIdlePrefetch(ready: boolean): void {
  useEffect(() => (ready ? inIdlePeriods(STEPS) : undefined), [ready]);
}
