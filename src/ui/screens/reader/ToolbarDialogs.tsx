/**
 * The reader toolbar's two settings dialogs (see ReaderToolbar.tsx), a lazy chunk that mounts each on the first
 * sign it is wanted (src/ui/components/DeferredMenu.tsx): the text menu of the wide row and the small screens'
 * 'Reader controls menu', with their radio groups, popovers and React Aria's overlay positioning.
 */
import type { CSSProperties, ReactNode } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Label, Popover, Radio, RadioGroup } from 'react-aria-components';
import { FONT_SIZE_LABELS, FONT_SIZES } from '../../../engine/settings';
import { READING_RULER_LABELS, READING_RULER_OPTIONS } from '../../../domain/readingRuler';
import {
  PAGE_TINT_LABELS,
  PAGE_TINT_PALETTES,
  PAGE_TINTS,
  READING_FONT_FAMILIES,
  READING_FONT_LABELS,
  READING_FONTS,
  TEXT_SPACING_LABELS,
  TEXT_SPACINGS,
  type PageTint,
  type ReadingFont,
  type ReadingTypeSettings,
} from '../../../domain/readingType';
import { useDeferredSelect, type DeferredMenuProps } from '../../components/DeferredMenu';
import { Tick, type MenuProps, type ReaderControls, type TextMenuProps } from './toolbarTriggers';
import { DecodeToggle, WordModeToggle } from './toolbarToggles';
import { listItem, popoverStyles } from './readerStyles';

/** Small screens: decode, word mode, text size, the reading ruler, font, spacing and page tint in one 'Reader controls menu'. */
export function MobileControls({
  fontSize,
  onFontSize,
  ruler,
  onRuler,
  readingType,
  onReadingType,
  wordMode,
  onWordMode,
  onOpenChange,
  button,
  defaultOpen,
  autoFocus,
}: ReaderControls & MenuProps & DeferredMenuProps) {
  const deferred = useDeferredSelect({ defaultOpen, autoFocus, onOpenChange });
  return (
    <DialogTrigger {...deferred.select}>
      <Button aria-label={button['aria-label']} className={button.className} {...deferred.trigger}>
        {button.children}
      </Button>
      <Popover placement="bottom end" offset={6} className={`${popoverStyles} max-h-[min(36rem,calc(100dvh-6rem))] w-64 p-3`}>
        <Dialog aria-labelledby="reader-controls-title" className="outline-none">
          <Heading id="reader-controls-title" slot="title" className="sr-only">
            Reader controls
          </Heading>
          <DecodeToggle variant="menu" />
          <WordModeToggle isSelected={wordMode} onChange={onWordMode} variant="menu" />
          <SettingRadios label="Text size" options={FONT_SIZES} labels={FONT_SIZE_LABELS} value={fontSize} onChange={onFontSize} />
          <SettingRadios label="Reading ruler" options={READING_RULER_OPTIONS} labels={READING_RULER_LABELS} value={ruler} onChange={onRuler} />
          <ReadingTypeRadios value={readingType} onChange={onReadingType} />
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}

/** One reader setting as a group of radios, for the small screen's controls menu (SettingPicker's counterpart). */
function SettingRadios<T extends string>({
  label,
  options,
  labels,
  value,
  onChange,
  preview,
  className = 'mt-4',
}: {
  label: string;
  options: readonly T[];
  labels: Record<T, string>;
  value: T;
  onChange: (value: T) => void;
  /** What an option shows beside its name (a swatch), or the style its name is drawn in (a font). */
  preview?: (option: T) => { swatch?: ReactNode; style?: CSSProperties };
  className?: string;
}) {
  return (
    <RadioGroup value={value} onChange={(v) => onChange(v as T)} className={`${className} flex flex-col gap-1`}>
      <Label className="px-1 pb-1 text-xs font-semibold tracking-wide text-ink-muted">{label}</Label>
      {options.map((option) => (
        <Radio key={option} value={option} className={`${listItem} data-[focus-visible]:outline-solid data-[focus-visible]:outline-3 data-[focus-visible]:outline-focus`}>
          {({ isSelected }) => (
            <>
              {preview?.(option).swatch}
              <span className="flex-1" style={preview?.(option).style}>
                {labels[option]}
              </span>
              <Tick isShown={isSelected} />
            </>
          )}
        </Radio>
      ))}
    </RadioGroup>
  );
}

/**
 * The text menu: the text size (SPEC §9), and the passage's font, spacing and page tint. Its
 * trigger shows the text size, as the text-size dropdown it replaces did.
 */
export function TextMenu({
  fontSize,
  onFontSize,
  readingType,
  onReadingType,
  onOpenChange,
  button,
  defaultOpen,
  autoFocus,
}: TextMenuProps & DeferredMenuProps) {
  const deferred = useDeferredSelect({ defaultOpen, autoFocus, onOpenChange });
  return (
    <DialogTrigger {...deferred.select}>
      <Button className={button.className} {...deferred.trigger}>
        {button.children}
      </Button>
      <Popover placement="bottom end" offset={6} className={`${popoverStyles} max-h-[min(40rem,calc(100dvh-6rem))] w-[min(32rem,calc(100vw-2rem))] p-3`}>
        <Dialog aria-labelledby="text-menu-title" className="grid grid-cols-2 gap-x-4 outline-none">
          <Heading id="text-menu-title" slot="title" className="sr-only">
            Text settings
          </Heading>
          <SettingRadios label="Text size" options={FONT_SIZES} labels={FONT_SIZE_LABELS} value={fontSize} onChange={onFontSize} className="mt-1" />
          <ReadingTypeRadios value={readingType} onChange={onReadingType} first="mt-1" />
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}

const fontPreview = (font: ReadingFont) => ({ style: READING_FONT_FAMILIES[font] ? { fontFamily: READING_FONT_FAMILIES[font]! } : undefined });
const tintPreview = (tint: PageTint) => ({
  swatch: (
    <span
      aria-hidden="true"
      className="size-4 shrink-0 rounded-full border border-line-strong"
      style={{ backgroundColor: PAGE_TINT_PALETTES[tint].paper }}
    />
  ),
});

/** Font, spacing and page tint as radio groups: in the text menu, and in the small screen's controls menu. */
function ReadingTypeRadios({
  value,
  onChange,
  first = 'mt-4',
}: {
  value: ReadingTypeSettings;
  onChange: (patch: Partial<ReadingTypeSettings>) => void;
  /** The first group's top margin (beside the text sizes in the two-column text menu). */
  first?: string;
}) {
  return (
    <>
      <SettingRadios label="Font" options={READING_FONTS} labels={READING_FONT_LABELS} value={value.readingFont} onChange={(readingFont) => onChange({ readingFont })} preview={fontPreview} className={first} />
      <SettingRadios label="Spacing" options={TEXT_SPACINGS} labels={TEXT_SPACING_LABELS} value={value.textSpacing} onChange={(textSpacing) => onChange({ textSpacing })} />
      <SettingRadios label="Page tint" options={PAGE_TINTS} labels={PAGE_TINT_LABELS} value={value.pageTint} onChange={(pageTint) => onChange({ pageTint })} preview={tintPreview} />
    </>
  );
}
