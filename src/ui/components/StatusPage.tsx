/** Full-width centred message pages: 404 and unexpected errors. */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { PRODUCT_NAME, SUPPORT_EMAIL } from '../../domain/constants';
import { buttonStyles, cardStyles } from './styles';
import { paths } from '../../domain/routes';

export function StatusCard({
  eyebrow,
  title,
  children,
  actions,
  headingLevel = 1,
}: {
  eyebrow?: string;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
  headingLevel?: 1 | 2;
}) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section className={`${cardStyles} mx-auto my-10 max-w-xl px-6 py-10 text-center sm:my-16 sm:px-10`}>
      {eyebrow && <p className="mb-3 font-serif text-5xl font-semibold tracking-tight text-primary-200" aria-hidden="true">{eyebrow}</p>}
      <Heading className="text-2xl font-semibold sm:text-3xl">{title}</Heading>
      {children && <div className="mt-4 space-y-3 text-ink-muted">{children}</div>}
      {actions && <div className="mt-8 flex flex-wrap items-center justify-center gap-3">{actions}</div>}
    </section>
  );
}

/** The 404 page (SPEC §8): the message, and a link 'Go to Lectern'. */
export function NotFoundContent({ message, showSupport = false }: { message: string; showSupport?: boolean }) {
  return (
    <StatusCard
      eyebrow="404"
      title={message}
      actions={
        <>
          <Link href={paths.root} className={buttonStyles.primary}>
            Go to {PRODUCT_NAME}
          </Link>
          {showSupport && (
            <a href={`mailto:${SUPPORT_EMAIL}`} className={buttonStyles.secondary}>
              Contact Support
            </a>
          )}
        </>
      }
    />
  );
}
