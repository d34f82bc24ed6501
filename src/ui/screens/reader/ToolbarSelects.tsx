/**
 * The reader toolbar's dropdowns themselves (see ReaderToolbar.tsx): React Aria's Selects for the sections and for
 * one reader setting, a lazy chunk that mounts each on the first sign it is wanted
 * (src/ui/components/DeferredMenu.tsx).
 */
import { Button, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { useDeferredSelect, type DeferredMenuProps } from '../../components/DeferredMenu';
import { SHORTCUT_LABEL, SHORTCUT_PLACEHOLDER, ShortcutTrigger, Tick, type SettingPickerProps, type ShortcutPickerProps } from './toolbarTriggers';
import { DropdownTrigger } from './DropdownTrigger';
import { listItem, popoverStyles } from './readerStyles';

export function ShortcutSelect({ shortcuts, lang, current, onChange, onOpenChange, button, defaultOpen, autoFocus }: ShortcutPickerProps & DeferredMenuProps) {
  const deferred = useDeferredSelect({ defaultOpen, autoFocus, onOpenChange });
  const index = current ? shortcuts.indexOf(current) : -1;
  return (
    <Select
      aria-label={SHORTCUT_LABEL}
      placeholder={SHORTCUT_PLACEHOLDER}
      selectedKey={index >= 0 ? String(index) : null}
      onSelectionChange={(key) => {
        if (key === null) return;
        const shortcut = shortcuts[Number(key)];
        if (shortcut) onChange(shortcut.passage);
      }}
      {...deferred.select}
      className="min-w-0"
    >
      <Button className={button.className} {...deferred.trigger}>
        <ShortcutTrigger
          value={
            <SelectValue className="truncate">
              {({ selectedText, defaultChildren, isPlaceholder }) => (isPlaceholder ? defaultChildren : <span lang={lang}>{selectedText}</span>)}
            </SelectValue>
          }
        />
      </Button>
      <Popover placement="bottom start" offset={6} maxHeight={400} className={`${popoverStyles} max-h-[400px] w-[min(26rem,calc(100vw-2rem))]`}>
        <ListBox aria-label="Sections" className="outline-none">
          {shortcuts.map((s, i) => (
            <ListBoxItem key={`${i}:${s.passage}`} id={String(i)} textValue={s.name} className={listItem}>
              <span lang={lang} className="flex-1">
                {s.name}
              </span>
              <span className="text-xs text-ink-muted tabular-nums">{s.passage}</span>
              <Tick isShown={i === index} />
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}

export function SettingSelect({
  label,
  listLabel,
  icon,
  width,
  options,
  labels,
  value,
  onChange,
  onOpenChange,
  button,
  defaultOpen,
  autoFocus,
}: SettingPickerProps<string> & DeferredMenuProps) {
  const deferred = useDeferredSelect({ defaultOpen, autoFocus, onOpenChange });
  return (
    <Select aria-label={label} selectedKey={value} onSelectionChange={(k) => k !== null && onChange(String(k))} {...deferred.select}>
      <Button className={button.className} {...deferred.trigger}>
        <DropdownTrigger icon={icon} value={<SelectValue>{({ selectedText, defaultChildren, isPlaceholder }) => (isPlaceholder ? defaultChildren : selectedText)}</SelectValue>} />
      </Button>
      <Popover placement="bottom end" offset={6} className={`${popoverStyles} ${width}`}>
        <ListBox aria-label={listLabel} className="outline-none">
          {options.map((option) => (
            <ListBoxItem key={option} id={option} textValue={labels[option]} className={listItem}>
              <span className="flex-1">{labels[option]}</span>
              <Tick isShown={option === value} />
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}
