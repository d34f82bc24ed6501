/**
 * The classroom pieces that only some readers need (teachers' curation controls, the class-code dialog), as lazy
 * chunks with a Suspense boundary each, so the catalog's entry JS does not carry them (bench: entry budget).
 */
import { lazy, Suspense, type ComponentProps, type ComponentType } from 'react';

function lazyPart<C extends ComponentType<any>>(load: () => Promise<C>) {
  const Part = lazy(async () => ({ default: await load() }));
  return function LazyPart(props: ComponentProps<C>) {
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  };
}

const controls = () => import('./CurationControls');

export const LazyEyeToggle = lazyPart(() => controls().then((m) => m.EyeToggle));
export const LazyVisibilityButton = lazyPart(() => controls().then((m) => m.VisibilityButton));
export const LazyVisibleToStudentsBadge = lazyPart(() => controls().then((m) => m.VisibleToStudentsBadge));
export const LazyClassroomSettingsPanel = lazyPart(() => controls().then((m) => m.ClassroomSettingsPanel));
export const LazyClassCodeDialog = lazyPart(() => import('./ClassCodeForm').then((m) => m.ClassCodeDialog));
