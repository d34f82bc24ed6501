/**
 * The catalog's search box, built on React Aria's hooks rather than its `SearchField` component: the component
 * brings React Aria's Autocomplete into the catalog's entry chunk (the catalog's first-load JS does not
 * grow). Same behaviour: Enter submits, Escape and the clear button clear, the clear button is out of the tab order.
 */
import { useRef } from 'react';
import { mergeProps, useButton, useHover, useSearchField } from 'react-aria';
import { useSearchFieldState } from 'react-stately';
import { CloseIcon, SearchIcon } from '../../components/Icons';

export function CatalogSearchField(props: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: (value: string) => void;
  onClear: () => void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const clearRef = useRef<HTMLButtonElement>(null);
  const state = useSearchFieldState({ value: props.value, onChange: props.onChange });
  const { inputProps, clearButtonProps } = useSearchField(
    { 'aria-label': props.label, placeholder: props.placeholder, value: props.value, onChange: props.onChange, onSubmit: props.onSubmit, onClear: props.onClear },
    state,
    inputRef,
  );
  const { buttonProps } = useButton(clearButtonProps, clearRef);
  const { hoverProps: inputHover, isHovered: inputHovered } = useHover({});
  const { hoverProps: clearHover, isHovered: clearHovered } = useHover({});
  return (
    <div className="group relative flex-1" data-empty={state.value === '' || undefined}>
      <SearchIcon size={20} className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-ink-muted" />
      <input
        {...mergeProps(inputProps, inputHover)}
        ref={inputRef}
        data-hovered={inputHovered || undefined}
        className="h-12 w-full rounded-xl border border-field bg-surface ps-11 pe-11 text-base text-ink shadow-[0_1px_2px_rgba(16,58,58,0.05)] placeholder:text-ink-muted/80 data-[hovered]:border-primary-400 [&::-webkit-search-cancel-button]:hidden"
      />
      <button
        {...mergeProps(buttonProps, clearHover)}
        ref={clearRef}
        data-hovered={clearHovered || undefined}
        className="absolute top-1/2 right-2 grid size-8 -translate-y-1/2 place-items-center rounded-lg text-ink-muted data-[hovered]:bg-primary-50 data-[hovered]:text-primary-900 group-data-[empty]:hidden"
      >
        <CloseIcon size={18} />
      </button>
    </div>
  );
}
