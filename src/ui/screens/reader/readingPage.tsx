/**
 * A reading page outside the reader (listen, teaser): its content in the shared layout (navbar, footer), with the
 * reader's features sent to the engine so its locks follow who reads. The route renders the screen bare.
 */
import type { ComponentType } from 'react';
import { MainLayout } from '../../layout/MainLayout';
import { useUserFeatures } from './readerHooks';

export function readingPage<P extends object>(Content: ComponentType<P>): ComponentType<P> {
  return function ReadingPage(props: P) {
    useUserFeatures();
    return (
      <MainLayout>
        <Content {...props} />
      </MainLayout>
    );
  };
}
