/**
 * The reader's top toolbar (SPEC §2 Reader screen): the shortcut dropdown of named sections; from medium widths
 * the decode and word-mode toggles and the text-size dropdown; on large screens 1 Column / 2 Columns; on small screens one
 * 'Reader controls menu'. It slides away after inactivity (the engine's toolbar machine) and is held while one
 * of its menus is open or it has focus.
 */
import { memo, useEffect, useMemo, type CSSProperties, type ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogTrigger,
  Heading,
  Label,
  Popover,
  Radio,
  RadioGroup,
  ToggleButton,
} from 'react-aria-components';
import type { Shortcut } from '../../../domain/schemas';
import { COLUMN_LABELS, COLUMN_OPTIONS, FONT_SIZE_LABELS, FONT_SIZES, type ReaderSettings } from '../../../engine/settings';
import { connectHighlightDecode, DECODE_UNAVAILABLE_TOOLTIP } from '../../../machines/highlightDecode';
import { connectToolbar, toolbarCommands } from '../../../machines/toolbar';
import { ChevronDownIcon, SlidersIcon } from '../../components/Icons';
import { ColumnsIcon, DecodeIcon, LockIcon, RulerIcon, TextSizeIcon, WordsIcon } from '../../components/ReaderIcons';
import { READING_RULER_LABELS, READING_RULER_OPTIONS, type ReadingRulerOption } from '../../../domain/readingRuler';
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
import { DeferredMenu, lazyMenu, type DeferredMenuProps } from '../../components/DeferredMenu';
import {
  SHORTCUT_LABEL,
  SHORTCUT_PLACEHOLDER,
  ShortcutTrigger,
  Tick,
  type SettingPickerProps,
  type ShortcutPickerProps,
} from './toolbarTriggers';
import { DropdownTrigger } from './DropdownTrigger';
import { Hint } from '../../components/Tooltip';
import { useMinWidth } from '../../platform/media';
import { useChildSend, useEngine } from '../../engine/useEngine';
import { controlButton, controlUnavailable, listItem, popoverStyles, TOOLBAR_ROW_CLASS } from './readerStyles';

const noop = () => {};

const ShortcutSelect = lazyMenu<ShortcutPickerProps & DeferredMenuProps>(() => import('./ToolbarSelects').then((m) => ({ default: m.ShortcutSelect })));
const SettingSelect = lazyMenu<SettingPickerProps<string> & DeferredMenuProps>(() => import('./ToolbarSelects').then((m) => ({ default: m.SettingSelect })));

type FontSize = ReaderSettings['fontSize'];
type Columns = ReaderSettings['columns'];

/** The menus of each toolbar variant (the desktop row, the small screens' controls menu). */
const WIDE_MENUS = ['font', 'ruler', 'columns'] as const;
const NARROW_MENUS = ['mobile'] as const;

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
type MenuProps = { onOpenChange: (open: boolean) => void };

export const ReaderToolbar = memo(function ReaderToolbar({
  shortcuts,
  shortcutLanguage,
  currentShortcut,
  onShortcut,
  columns,
  onColumns,
  showColumns,
  ...controls
}: ReaderControls & {
  shortcuts: readonly Shortcut[];
  /** The language the section names are written in (the first column's). */
  shortcutLanguage: string;
  currentShortcut: Shortcut | null;
  onShortcut: (passage: number) => void;
  columns: Columns;
  onColumns: (columns: Columns) => void;
  /** 1 Column / 2 Columns is offered (a large screen without a class code). */
  showColumns: boolean;
}) {
  // Only whether it shows: activity restarts the machine's timer (a new snapshot) without changing that.
  const isVisible = useEngine((s) => connectToolbar(s.toolbar, noop).isVisible);
  // The toolbar machine keeps what holds it: the view says which menu opened or closed and where focus went.
  const send = useChildSend('toolbar');
  const toolbar = useMemo(() => toolbarCommands(send), [send]);
  const menu = toolbar.menuOpenChange;
  const isMd = useMinWidth('md');
  useEffect(() => toolbar.menusGone(isMd ? NARROW_MENUS : WIDE_MENUS), [isMd, toolbar]);
  useEffect(() => toolbar.releaseAll, [toolbar]);

  return (
    <div
      data-hidden={isVisible ? undefined : ''}
      className="sticky top-0 z-30 border-b border-line bg-paper transition-[opacity,transform] duration-300 ease-out data-[hidden]:-translate-y-2 data-[hidden]:opacity-0"
      onFocus={toolbar.focusIn}
      onBlur={toolbar.focusOut}
    >
      <div role="group" aria-label="Reader tools" className={TOOLBAR_ROW_CLASS}>
        {shortcuts.length > 0 && (
          <ShortcutPicker shortcuts={shortcuts} lang={shortcutLanguage} current={currentShortcut} onChange={onShortcut} onOpenChange={menu('shortcuts')} />
        )}
        {/* Only the variant the screen's width shows is rendered (the same breakpoint as the CSS, styles.css): a
            hidden one cost the reader's first render its dropdowns' collections too (docs/performance.md "Ninth
            session"). */}
        {isMd ? (
          <div className="ms-auto flex items-center gap-2">
            <DecodeToggle />
            <WordModeToggle isSelected={controls.wordMode} onChange={controls.onWordMode} />
            <TextMenu {...controls} onOpenChange={menu('font')} />
            <SettingPicker {...RULER_PICKER} value={controls.ruler} onChange={controls.onRuler} onOpenChange={menu('ruler')} />
            {showColumns && <SettingPicker {...COLUMNS_PICKER} value={columns} onChange={onColumns} onOpenChange={menu('columns')} />}
          </div>
        ) : (
          <div className="ms-auto">
            <MobileControls {...controls} onOpenChange={menu('mobile')} />
          </div>
        )}
      </div>
    </div>
  );
});

/**
 * The shortcut dropdown of named sections. Its Select is a lazy chunk that mounts on the first sign it is wanted;
 * until then its button stands in for it, drawn and named the same (src/ui/components/DeferredMenu.tsx).
 */
function ShortcutPicker(props: ShortcutPickerProps) {
  const { current, lang } = props;
  return (
    <div className="min-w-0">
      <DeferredMenu
        menu={ShortcutSelect}
        props={props}
        button={{
          className: `${controlButton} max-w-full min-w-0 sm:max-w-md`,
          'aria-label': `${current ? current.name : SHORTCUT_PLACEHOLDER} ${SHORTCUT_LABEL}`,
          popup: 'listbox',
          children: <ShortcutTrigger value={<span className="truncate">{current ? <span lang={lang}>{current.name}</span> : SHORTCUT_PLACEHOLDER}</span>} />,
        }}
      />
    </div>
  );
}

/** Decode mode (SPEC §4 Decode): on when the edition and the user allow it; locked offers the upgrade. */
function DecodeToggle({ variant = 'toolbar' }: { variant?: 'toolbar' | 'menu' }) {
  const send = useChildSend('highlightDecode');
  const snap = useEngine((s) => s.highlightDecode, Object.is);
  const mode = connectHighlightDecode(snap, send);
  const wide = variant === 'menu' ? 'w-full justify-start' : '';
  if (!mode.canDecode && !mode.decodeLocked) {
    return (
      <Hint content={DECODE_UNAVAILABLE_TOOLTIP}>
        <Button aria-disabled="true" className={`${controlUnavailable} ${wide}`}>
          <DecodeIcon size={17} />
          Decode
        </Button>
      </Hint>
    );
  }
  return (
    <Hint content={mode.decodeTooltip}>
      {mode.canDecode ? (
        <ToggleButton isSelected={mode.isDecodeOn} onChange={mode.toggleDecode} className={`${controlButton} ${wide}`}>
          <DecodeIcon size={17} />
          Decode
        </ToggleButton>
      ) : (
        <Button onPress={mode.toggleDecode} className={`${controlButton} ${wide}`}>
          <LockIcon size={16} />
          Decode
        </Button>
      )}
    </Hint>
  );
}

/** The tooltip of the word-mode toggle. */
const WORD_MODE_TOOLTIP = 'Tap a word to hear it';

/**
 * Word mode (docs/reading-aids.md "Tap a word"): on, a tapped word is said. Shown wherever the
 * reader shows passages; a column without narration answers with the engine's 'Audio not available'.
 */
function WordModeToggle({ isSelected, onChange, variant = 'toolbar' }: { isSelected: boolean; onChange: (on: boolean) => void; variant?: 'toolbar' | 'menu' }) {
  return (
    <Hint content={WORD_MODE_TOOLTIP}>
      <ToggleButton isSelected={isSelected} onChange={onChange} className={`${controlButton} ${variant === 'menu' ? 'mt-2 w-full justify-start' : ''}`}>
        <WordsIcon size={17} />
        Words
      </ToggleButton>
    </Hint>
  );
}

/**
 * A toolbar dropdown of one reader setting: its icon and current value on the trigger, the choices ticked below.
 * Its Select is a lazy chunk that mounts on the first sign it is wanted (src/ui/components/DeferredMenu.tsx).
 */
function SettingPicker<T extends string>(props: SettingPickerProps<T>) {
  const { label, icon, labels, value } = props;
  return (
    <DeferredMenu
      menu={SettingSelect}
      props={props as unknown as SettingPickerProps<string>}
      button={{
        className: controlButton,
        'aria-label': `${labels[value]} ${label}`,
        popup: 'listbox',
        children: <DropdownTrigger icon={icon} value={<span>{labels[value]}</span>} />,
      }}
    />
  );
}

/** The settings the toolbar offers as dropdowns (§2 Two-column mode; the reading ruler). */
const RULER_PICKER = { label: 'Reading ruler', listLabel: 'Reading ruler sizes', icon: <RulerIcon size={17} className="text-primary-600" />, width: 'w-44', options: READING_RULER_OPTIONS, labels: READING_RULER_LABELS };
const COLUMNS_PICKER = { label: 'Columns', listLabel: 'Column layouts', icon: <ColumnsIcon size={17} className="text-primary-600" />, width: 'w-44', options: COLUMN_OPTIONS, labels: COLUMN_LABELS };

/** Small screens: decode, word mode, text size, the reading ruler, font, spacing and page tint in one 'Reader controls menu'. */
function MobileControls({
  fontSize,
  onFontSize,
  ruler,
  onRuler,
  readingType,
  onReadingType,
  wordMode,
  onWordMode,
  onOpenChange,
}: ReaderControls & MenuProps) {
  return (
    <DialogTrigger onOpenChange={onOpenChange}>
      <Button aria-label="Reader controls menu" className={`${controlButton} px-2.5`}>
        <SlidersIcon size={19} />
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
function TextMenu({
  fontSize,
  onFontSize,
  readingType,
  onReadingType,
  onOpenChange,
}: Pick<ReaderControls, 'fontSize' | 'onFontSize' | 'readingType' | 'onReadingType'> & MenuProps) {
  return (
    <DialogTrigger onOpenChange={onOpenChange}>
      <Button className={controlButton}>
        <TextSizeIcon size={18} className="text-primary-600" />
        <span className="sr-only">Text size: </span>
        {FONT_SIZE_LABELS[fontSize]}
        <ChevronDownIcon size={16} className="text-ink-muted" />
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
