/** The text of a list choice with a tick when it is the selected one (menus and dropdowns of one choice). */
import { CheckIcon } from './Icons';

export function ChoiceLabel({ label, isSelected }: { label: string; isSelected: boolean }) {
  return (
    <>
      <span>{label}</span>
      {isSelected && <CheckIcon size={16} />}
    </>
  );
}
