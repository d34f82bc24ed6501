/**
 * The reader's top toolbar (SPEC §2 Reader screen): the shortcut dropdown of named sections; from medium widths
 * the decode and word-mode toggles and the text-size dropdown; on large screens 1 Column / 2 Columns; on small screens one
 * 'Reader controls menu'. It slides away after inactivity (the engine's toolbar machine) and is held while one
 * of its menus is open or it has focus.
 */
import { memo, useEffect, useMemo } from 'react';
import type { Shortcut } from '../../../domain/schemas';
import { COLUMN_LABELS, COLUMN_OPTIONS, FONT_SIZE_LABELS, type ReaderSettings } from '../../../engine/settings';
import { connectToolbar, toolbarCommands } from '../../../machines/toolbar';
import { ChevronDownIcon, SlidersIcon } from '../../components/Icons';
import { ColumnsIcon, RulerIcon, TextSizeIcon } from '../../components/ReaderIcons';
import { READING_RULER_LABELS, READING_RULER_OPTIONS } from '../../../domain/readingRuler';
import { DeferredMenu, lazyMenu, type DeferredMenuProps } from '../../components/DeferredMenu';
import {
  SHORTCUT_LABEL,
  SHORTCUT_PLACEHOLDER,
  ShortcutTrigger,
  type MenuProps,
  type ReaderControls,
  type SettingPickerProps,
  type ShortcutPickerProps,
  type TextMenuProps,
} from './toolbarTriggers';

export type { ReaderControls } from './toolbarTriggers';
import { DropdownTrigger } from './DropdownTrigger';
import { DecodeToggle, WordModeToggle } from './toolbarToggles';
import { useMinWidth } from '../../platform/media';
import { useChildSend, useEngine } from '../../engine/useEngine';
import { controlButton, TOOLBAR_ROW_CLASS } from './readerStyles';

const noop = () => {};

const ShortcutSelect = lazyMenu<ShortcutPickerProps & DeferredMenuProps>(() => import('./ToolbarSelects').then((m) => ({ default: m.ShortcutSelect })));
const SettingSelect = lazyMenu<SettingPickerProps<string> & DeferredMenuProps>(() => import('./ToolbarSelects').then((m) => ({ default: m.SettingSelect })));
// The text menu and the small screens' controls menu are dialogs, deferred the same way (ToolbarDialogs.tsx).
const TextMenuDialog = lazyMenu<TextMenuProps & DeferredMenuProps>(() => import('./ToolbarDialogs').then((m) => ({ default: m.TextMenu })));
const MobileControlsDialog = lazyMenu<ReaderControls & MenuProps & DeferredMenuProps>(() => import('./ToolbarDialogs').then((m) => ({ default: m.MobileControls })));

/** Fetches the toolbar's deferred menus and dialogs without mounting them (an idle prefetch). */
export const prefetchToolbarMenus = () => Promise.all([ShortcutSelect.prefetch(), TextMenuDialog.prefetch()]);

type Columns = ReaderSettings['columns'];

/** The menus of each toolbar variant (the desktop row, the small screens' controls menu). */
const WIDE_MENUS = ['font', 'ruler', 'columns'] as const;
const NARROW_MENUS = ['mobile'] as const;

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

/**
 * The text menu (ToolbarDialogs.tsx): its trigger shows the text size, as the text-size dropdown it replaces did.
 * The dialog is a lazy chunk that mounts on the first sign it is wanted; until then its button stands in for it.
 */
function TextMenu({ fontSize, onFontSize, readingType, onReadingType, onOpenChange }: TextMenuProps) {
  return (
    <DeferredMenu
      menu={TextMenuDialog}
      props={{ fontSize, onFontSize, readingType, onReadingType, onOpenChange }}
      button={{
        className: controlButton,
        popup: 'dialog',
        children: (
          <>
            <TextSizeIcon size={18} className="text-primary-600" />
            <span className="sr-only">Text size: </span>
            {FONT_SIZE_LABELS[fontSize]}
            <ChevronDownIcon size={16} className="text-ink-muted" />
          </>
        ),
      }}
    />
  );
}

/** Small screens: decode, word mode, text size, the reading ruler, font, spacing and page tint in one 'Reader controls menu'. */
function MobileControls(props: ReaderControls & MenuProps) {
  return (
    <DeferredMenu
      menu={MobileControlsDialog}
      props={props}
      button={{ className: `${controlButton} px-2.5`, 'aria-label': 'Reader controls menu', popup: 'dialog', children: <SlidersIcon size={19} /> }}
    />
  );
}
