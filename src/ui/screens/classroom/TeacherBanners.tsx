/**
 * The teacher's banners: the Free Library's dismissible tip about the eye icons (dismissal remembered in
 * localStorage, so it stays closed on later visits), and the Classroom Library's 'Teachers Only' banner.
 */
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { CloseIcon, EyeIcon } from '../../components/Icons';
import { localStore } from '../../platform/storage';
import { CLASSROOM_TEXTS } from './classroom';

/** localStorage key ('lectern.' prefix) of the tip banner's dismissal. */
export const EYE_TIP_DISMISSED_KEY = 'eyeTipDismissed';
export const EYE_TIP_TEXT =
  'Tip: click the eye icon on a title to show it to your students or hide it from them. Titles you show appear in your Classroom Library.';

export function EyeTipBanner() {
  const [dismissed, setDismissed] = useState(() => localStore.get(EYE_TIP_DISMISSED_KEY) === '1');
  if (dismissed) return null;
  const dismiss = () => {
    localStore.set(EYE_TIP_DISMISSED_KEY, '1');
    setDismissed(true);
  };
  return (
    <section aria-label="Tip" className="mt-6 flex items-start gap-3 rounded-2xl border border-primary-200 bg-primary-50 px-4 py-3 text-sm text-primary-950">
      <EyeIcon size={20} className="mt-0.5 shrink-0 text-primary-700" />
      <p className="flex-1">{EYE_TIP_TEXT}</p>
      <Button aria-label="Dismiss tip" onPress={dismiss} className="rounded-md p-1 text-primary-800 data-[hovered]:bg-primary-100">
        <CloseIcon size={18} />
      </Button>
    </section>
  );
}

export function TeachersOnlyBanner() {
  return (
    <section aria-label={CLASSROOM_TEXTS.teachersOnlyBadge} className="mt-6 flex flex-wrap items-center gap-3 rounded-2xl border border-primary-200 bg-primary-50 px-4 py-3 text-sm text-primary-950">
      <span className="rounded-full bg-primary-900 px-2.5 py-0.5 text-xs font-semibold tracking-wide text-white uppercase">{CLASSROOM_TEXTS.teachersOnlyBadge}</span>
      <p className="min-w-0 flex-1">{CLASSROOM_TEXTS.teacherBanner}</p>
    </section>
  );
}
