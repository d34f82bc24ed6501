/**
 * The teacher's visibility controls (SPEC §2 Catalog, Classroom Library, Publication detail; §4 Title visibility),
 * all on useTitleCuration, so each is disabled while a change of its title saves:
 * - the eye toggle on a card (pressed = ASSIGNED, shown to students);
 * - 'Hide from Students' / 'Show to Students' in the detail page's left panel;
 * - the Classroom Settings switch;
 * - the 'Visible to Students' badge.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Switch, ToggleButton } from 'react-aria-components';
import { EyeIcon, EyeOffIcon } from '../../components/Icons';
import { buttonStyles } from '../../components/styles';
import { queries } from '../../platform/api';
import { useCurrentUser } from '../auth/session';
import { useClassCode } from './classCodeState';
import { CLASSROOM_TEXTS, isAssigned, isTeacher } from './classroom';
import { useTitleCuration } from './useCuration';

/** The accessible name of a card's eye toggle; pressed means the title is visible to students. */
export function eyeToggleName(title: string): string {
  return `Visible to students: ${title}`;
}

export function EyeToggle({ titleId, title, className = '' }: { titleId: number; title: string; className?: string }) {
  const curation = useTitleCuration(titleId);
  if (!curation.isTeacher) return null;
  return (
    <ToggleButton
      aria-label={eyeToggleName(title)}
      isSelected={curation.isAssigned}
      onChange={curation.setVisible}
      isDisabled={curation.isDisabled}
      className={`grid size-10 place-items-center rounded-full border shadow-md transition-colors outline-offset-2 data-[disabled]:cursor-wait data-[disabled]:opacity-60 ${
        curation.isAssigned
          ? 'border-primary-900 bg-primary-900 text-white data-[hovered]:bg-primary-800'
          : 'border-line-strong bg-surface text-ink-muted data-[hovered]:bg-primary-50 data-[hovered]:text-primary-900'
      } ${className}`}
    >
      {curation.isAssigned ? <EyeIcon size={20} /> : <EyeOffIcon size={20} />}
    </ToggleButton>
  );
}

/** SPEC §2 Publication detail, left panel: 'Hide from Students' / 'Show to Students' (teachers only). */
export function VisibilityButton({ titleId }: { titleId: number }) {
  const curation = useTitleCuration(titleId);
  if (!curation.isTeacher) return null;
  return (
    <Button onPress={curation.toggle} isDisabled={curation.isDisabled} className={`${buttonStyles.secondary} mt-3 w-full py-3 text-base`}>
      {curation.isAssigned ? <EyeOffIcon size={20} /> : <EyeIcon size={20} />}
      {curation.isAssigned ? 'Hide from Students' : 'Show to Students'}
    </Button>
  );
}

/**
 * 'Visible to Students' when the title is ASSIGNED: for a teacher from their user titles, for a student from the
 * class's titles (GET /users/titles with the class code).
 */
export function VisibleToStudentsBadge({ titleId }: { titleId: number }) {
  const { data: user } = useCurrentUser();
  const classCode = useClassCode();
  const teacher = isTeacher(user);
  const viewer = teacher ? { userId: user.id } : { groupCode: classCode.code ?? '' };
  const titles = useQuery({ ...queries.userTitles(viewer), enabled: teacher || (user === null && classCode.code !== null) });
  if (!isAssigned(titles.data, titleId)) return null;
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-primary-100 px-3 py-1 text-sm font-semibold text-primary-900">
      <EyeIcon size={16} />
      {CLASSROOM_TEXTS.visibleToStudentsBadge}
    </span>
  );
}

/** SPEC §2 Publication detail, Classroom Settings: the visibility switch, or the sign-in note for non-teachers. */
export function ClassroomSettingsPanel({ titleId }: { titleId: number }) {
  const curation = useTitleCuration(titleId);
  if (!curation.isTeacher) return <p className="text-ink-muted">{CLASSROOM_TEXTS.settingsSignIn}</p>;
  return (
    <div className="max-w-xl rounded-2xl border border-line bg-surface p-5">
      <Switch isSelected={curation.isAssigned} onChange={curation.setVisible} isDisabled={curation.isDisabled} className="group flex items-center gap-4">
        <span className="flex h-7 w-12 shrink-0 items-center rounded-full bg-line-strong p-0.5 transition-colors group-data-[selected]:bg-primary-900 group-data-[disabled]:opacity-60 group-data-[focus-visible]:outline-solid group-data-[focus-visible]:outline-2 group-data-[focus-visible]:outline-offset-2 group-data-[focus-visible]:outline-primary-700">
          <span className="size-6 rounded-full bg-white shadow transition-transform group-data-[selected]:translate-x-5" />
        </span>
        <span className="font-medium text-ink">{CLASSROOM_TEXTS.visibleToStudentsBadge}</span>
      </Switch>
      <p className="mt-3 text-sm text-ink-muted">
        {curation.isAssigned
          ? 'Students with your class code see this title in their Classroom Library.'
          : 'This title is hidden from your students. Turn the switch on to add it to their Classroom Library.'}
      </p>
    </div>
  );
}
