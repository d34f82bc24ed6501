/** The card that /sign-in, /sign-up, /forgot-password and /reset-password stand in: outside the main layout, the logo home and the page's heading. */
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { PRODUCT_NAME } from '../../../domain/constants';
import { paths } from '../../../domain/routes';
import { LogoMark } from '../../components/Logo';
import { cardStyles } from '../../components/styles';

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="grid min-h-screen place-items-center bg-paper px-4 py-12">
      <div className={`${cardStyles} w-full max-w-md px-6 py-10 sm:px-10`}>
        <Link href={paths.root} className="mx-auto flex w-fit items-center gap-2.5 rounded-lg">
          <LogoMark size={40} />
          <span className="font-serif text-2xl font-semibold text-primary-900">{PRODUCT_NAME}</span>
        </Link>
        <h1 className="mt-8 text-center text-2xl font-semibold">{title}</h1>
        {children}
      </div>
    </main>
  );
}
