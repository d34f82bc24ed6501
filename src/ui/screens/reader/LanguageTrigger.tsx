/**
 * What the language dropdown (LanguagePicker.tsx) shows on its button, shared by its stand-in and by the loaded
 * Select (LanguageSelect.tsx), and its props.
 */
import type { ReactNode } from 'react';
import type { Language } from '../../../domain/schemas';
import { GlobeIcon } from '../../components/Icons';
import { DropdownTrigger } from './DropdownTrigger';

export interface LanguagePickerProps {
  /** The accessible name, e.g. 'Language'. */
  label: string;
  current: { code: string; name: string };
  /** The languages this title offers. */
  languages: readonly Language[];
  recentCodes: readonly string[];
  /** Language codes shown greyed (from the engine's column locks). @default [] */
  lockedCodes?: readonly string[];
  onChange: (code: string) => void;
  onOpenChange?: (open: boolean) => void;
}

export const LANGUAGE_VALUE_CLASS = 'truncate tracking-wide uppercase';

/** What the dropdown's button shows, around `value` (the Select's value, or its text in the stand-in). */
export function LanguageTrigger({ value }: { value: ReactNode }) {
  return <DropdownTrigger icon={<GlobeIcon size={17} className="shrink-0 text-primary-600" />} value={value} />;
}
