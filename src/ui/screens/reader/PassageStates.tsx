/**
 * What a column shows instead of a locked passage (SPEC §6 content gating): the group-code panel and the license
 * panel, a chunk the reader loads when one shows; with the loading and error states of PassageStatus.tsx, which
 * the listen and teaser screens take from here too.
 */
import { useId, useState, type FormEvent } from 'react';
import { Button } from 'react-aria-components';
import { Link } from 'wouter';
import { GROUP_CODE_REQUIRED_MESSAGE, LICENSE_REQUIRED_MESSAGE } from '../../../domain/access';
import { SUPPORT_EMAIL } from '../../../domain/constants';
import { LockIcon } from '../../components/ReaderIcons';
import { buttonStyles, linkStyles } from '../../components/styles';
import { signInPath, signUpPath } from '../../../domain/routes';
import { panel } from './PassageStatus';

export { CreatingEdition, ErrorPanel, PassageNotFound, PassageSkeleton } from './PassageStatus';

/** Where the license panel and the premium dialog send people who want to know about School Licenses. */
export const LICENSING_INFO_HREF = `mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent('School License')}`;

/**
 * SPEC §6: 'Enter Class Code or Sign In', Submit, and Sign In / free account links carrying redirectUrl. The code
 * field is a native label and input: React Aria's field machinery would put its validation and form code in the
 * reader's start-up for a panel only a locked passage shows.
 */
export function GroupCodePanel({ here, onSubmit, isSubmitting }: { here: string; onSubmit: (code: string) => void; isSubmitting: boolean }) {
  const [code, setCode] = useState('');
  const titleId = useId();
  const inputId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(code);
  };
  return (
    <section aria-labelledby={titleId} className={panel}>
      <h2 id={titleId} className="text-2xl font-semibold">
        {GROUP_CODE_REQUIRED_MESSAGE}
      </h2>
      <p className="mt-3 text-ink-muted">This passage is shared with a class. Type the class code your teacher gave you to keep reading.</p>
      <form onSubmit={submit} className="mx-auto mt-6 flex max-w-sm flex-col gap-3 text-start sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1.5">
          <label htmlFor={inputId} className="text-sm font-medium text-ink">
            Class Code
          </label>
          <input
            id={inputId}
            type="text"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            className="h-11 rounded-lg border border-field bg-surface px-3 font-mono tracking-widest uppercase outline-none"
          />
        </div>
        <Button type="submit" isPending={isSubmitting} className={`${buttonStyles.primary} h-11`}>
          Submit
        </Button>
      </form>
      <p className="mt-6 text-sm text-ink-muted">
        <Link href={signInPath(here)} className={linkStyles}>
          Sign In
        </Link>{' '}
        or create a{' '}
        <Link href={signUpPath(here)} className={linkStyles}>
          free account
        </Link>
      </p>
    </section>
  );
}

const PLACEHOLDER_LINES = [
  'The morning light came slowly over the hills and settled on the roofs of the quiet town below.',
  'She walked along the path, counting her steps and listening to the birds that called from the hedges.',
  'Nobody had told her what she would find at the end of the road, only that it would be worth the journey.',
  'When at last she reached the gate, she stopped, took a long breath, and pushed it open.',
];

/** SPEC §6: 'This content requires a School License' over blurred placeholder text, with a link to licensing info. */
export function LicensePanel() {
  const titleId = useId();
  return (
    <div className="relative">
      <div aria-hidden="true" className="pointer-events-none space-y-4 font-serif text-xl leading-relaxed text-ink blur-[6px] select-none">
        {PLACEHOLDER_LINES.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      <div className="absolute inset-0 grid place-items-center px-2">
        <section aria-labelledby={titleId} className={`${panel} max-w-md bg-surface/95`}>
          <span className="mx-auto grid size-11 place-items-center rounded-full bg-primary-50 text-primary-800">
            <LockIcon size={22} />
          </span>
          <h2 id={titleId} className="mt-4 text-xl font-semibold">
            {LICENSE_REQUIRED_MESSAGE}
          </h2>
          <p className="mt-2 text-ink-muted">Your school can unlock every level, language and narration for its readers.</p>
          <a href={LICENSING_INFO_HREF} className={`${buttonStyles.primary} mt-6`}>
            Learn about School Licenses
          </a>
        </section>
      </div>
    </div>
  );
}
