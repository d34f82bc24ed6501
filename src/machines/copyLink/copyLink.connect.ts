import type { SnapshotFrom } from 'xstate';
import type { copyLinkMachine } from './copyLink.machine';
import type { CopyLinkEvent } from './copyLink.types';

export function connectCopyLink(snapshot: SnapshotFrom<typeof copyLinkMachine>, _send: (event: CopyLinkEvent) => void) {
  const isCopied = snapshot.matches('copied');
  return {
    isCopied,
    buttonLabel: isCopied ? 'Copied!' : 'Copy Link',
  };
}
