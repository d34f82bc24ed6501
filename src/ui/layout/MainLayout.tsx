/** The main layout group: skip link, navbar, page content (max width 1440 px) and footer. */
import type { ReactNode } from 'react';
import { pageContainer } from '../components/styles';
import { Footer } from './Footer';
import { Navbar } from './Navbar';

export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only z-50 rounded-lg bg-primary-900 px-4 py-2 font-medium text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      Skip to content
    </a>
  );
}

export function MainLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <Navbar />
      <main id="main" tabIndex={-1} className={`${pageContainer} flex-1 pt-6 pb-16 outline-none sm:pt-10`}>
        {children}
      </main>
      <Footer />
    </div>
  );
}
