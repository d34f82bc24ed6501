/**
 * What the reader toolbar's dropdowns (ReaderToolbar.tsx) show on their buttons, shared by their stand-ins and by
 * the loaded Selects (ToolbarSelects.tsx), their props, and the tick beside a chosen entry.
 */
import type { ReactNode } from 'react';
import type { Shortcut } from '../../../domain/schemas';
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
