/**
 * The reader's overlays: the toasts of the engine's toast queue (SPEC §8 Toasts) and the 'Unlock Premium
 * {feature}' dialog (SPEC §2 Dialogs), both controlled by the engine.
 */
import { memo, Suspense, useEffect } from 'react';
import { Button } from 'react-aria-components';
import { connectPremiumDialog } from '../../../domain/locks';
import { connectToasts, releaseToasts } from '../../../machines/toasts';
import { CloseIcon } from '../../components/Icons';
import { useCurrentAddress } from '../../hooks/useCurrentAddress';
import { lazyPart } from '../../components/lazyPart';
import { useChildSend, useEngine, useEngineSend } from '../../engine/useEngine';
import { signInPath } from '../../../domain/routes';

/** The dialog's modal, a chunk of its own (PremiumDialogPanel.tsx). */
export const PremiumDialogPanel = lazyPart(() => import('./PremiumDialogPanel').then((m) => m.default));

export const EngineToasts = memo(function EngineToasts() {
  const send = useChildSend('toasts');
  const snap = useEngine((s) => s.toasts, Object.is);
  const { toasts, dismiss, hold } = connectToasts(snap, send);
  // Gone from the page (another route's layout): nothing here holds the toasts any longer.
  useEffect(() => () => releaseToasts(send), [send]);
  return (
    // The pointer over a toast, or focus in one, holds them all (the toasts machine).
    <section
      aria-label="Notifications"
      onPointerEnter={() => hold('pointer', true)}
      onPointerLeave={() => hold('pointer', false)}
      onFocus={() => hold('focus', true)}
      onBlur={(event) => !event.currentTarget.contains(event.relatedTarget) && hold('focus', false)}
      className="pointer-events-none fixed inset-x-0 bottom-24 z-50 flex flex-col items-center gap-2 px-4 sm:items-end sm:px-6"
    >
      {toasts.map((toast) => (
        <div
          key={toast.id}
          role={toast.kind === 'error' ? 'alert' : 'status'}
          className={`pointer-events-auto flex max-w-sm items-center gap-3 rounded-xl px-4 py-3 text-sm font-medium shadow-lg ${
            toast.kind === 'error' ? 'bg-danger text-white' : 'bg-primary-900 text-white'
          }`}
        >
          <span className="flex-1">{toast.message}</span>
          <Button aria-label="Dismiss" onPress={() => dismiss(toast.id)} className="rounded-md p-1 text-white/80 outline-none data-[hovered]:text-white data-[focus-visible]:outline-solid data-[focus-visible]:outline-2 data-[focus-visible]:outline-white">
            <CloseIcon size={16} />
          </Button>
        </div>
      ))}
    </section>
  );
});

/**
 * 'Unlock Premium {feature}' (SPEC §2 Dialogs), for Levels, Languages, Audio, Decode and Novels: what the feature
 * requires (connectPremiumDialog), Learn More (licensing information) and Sign In back to this address. The
 * reader, listen and teaser screens render it; the engine opens it.
 */
export const PremiumDialog = memo(function PremiumDialog() {
  const dialog = connectPremiumDialog(
    useEngine((s) => s.premiumDialog, Object.is),
    useChildSend('premiumDialog'),
  );
  const here = useCurrentAddress();
  // The modal's chunk is fetched when the dialog first opens (or earlier, when the browser is idle).
  if (!dialog.isOpen) return null;
  return (
    <Suspense fallback={null}>
      <PremiumDialogPanel title={dialog.title} message={dialog.message} signInHref={signInPath(here)} close={dialog.close} />
    </Suspense>
  );
});
