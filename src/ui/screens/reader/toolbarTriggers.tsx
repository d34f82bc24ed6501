/**
 * What the reader toolbar's dropdowns (ReaderToolbar.tsx) show on their buttons, shared by their stand-ins and by
 * the loaded Selects (ToolbarSelects.tsx), their props, and the tick beside a chosen entry.
 */
import type { ReactNode } from 'react';
import type { ReadingRulerOption } from '../../../domain/readingRuler';
import type { ReadingTypeSettings } from '../../../domain/readingType';
import type { Shortcut } from '../../../domain/schemas';
import type { ReaderSettings } from '../../../engine/settings';
import { CheckIcon } from '../../components/Icons';
import { ListIcon } from '../../components/ReaderIcons';
import { DropdownTrigger } from './DropdownTrigger';

/** The section dropdown's props (its Select is ToolbarSelects.tsx's ShortcutSelect). */
export interface ShortcutPickerProps {
  shortcuts: readonly Shortcut[];
  lang: string;
  current: Shortcut | null;
  onChange: (passage: number) => void;
  onOpenChange: (open: boolean) => void;
}

/** What the section dropdown's button shows, around `value` (the Select's value, or its text in the stand-in). */
export function ShortcutTrigger({ value }: { value: ReactNode }) {
  return <DropdownTrigger icon={<ListIcon size={17} className="shrink-0 text-primary-600" />} value={value} />;
}

/** The section dropdown's name (SPEC §2 Reader screen) and its text before a section is reached. */
export const SHORTCUT_LABEL = 'Go to section';
export const SHORTCUT_PLACEHOLDER = 'Sections';

/** A toolbar dropdown's props: one reader setting (its Select is ToolbarSelects.tsx's SettingSelect). */
export interface SettingPickerProps<T extends string> {
  label: string;
  listLabel: string;
  icon: ReactNode;
  /** The popover's width class. */
  width: string;
  options: readonly T[];
  labels: Record<T, string>;
  value: T;
  onChange: (value: T) => void;
  onOpenChange: (open: boolean) => void;
}

/** The tick beside the chosen entry of a list. */
export function Tick({ isShown }: { isShown: boolean }) {
  return <span className="grid w-4 place-items-center text-primary-700">{isShown && <CheckIcon size={16} />}</span>;
}

type FontSize = ReaderSettings['fontSize'];

/**
 * The reader settings the toolbar's menus show, each with its setter: the wide row, its text menu and the small
 * screens' controls menu take the same ones.
 */
export interface ReaderControls {
  fontSize: FontSize;
  onFontSize: (size: FontSize) => void;
  /** The reading ruler (src/domain/readingRuler.ts): off, or its band in lines. */
  ruler: ReadingRulerOption;
  onRuler: (ruler: ReadingRulerOption) => void;
  /** The passage's font, spacing and page tint (src/domain/readingType.ts), chosen in the text menu. */
  readingType: ReadingTypeSettings;
  onReadingType: (patch: Partial<ReadingTypeSettings>) => void;
  /** Word mode (docs/reading-aids.md "Tap a word"): a tapped word is said. */
  wordMode: boolean;
  onWordMode: (on: boolean) => void;
}

/** A menu's open state, told to the toolbar machine, which holds the toolbar while one is open. */
export type MenuProps = { onOpenChange: (open: boolean) => void };

/** The text menu's settings: the text size, and the passage's font, spacing and page tint. */
export type TextMenuProps = Pick<ReaderControls, 'fontSize' | 'onFontSize' | 'readingType' | 'onReadingType'> & MenuProps;
