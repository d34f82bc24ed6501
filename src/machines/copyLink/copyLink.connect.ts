import type { SnapshotFrom } from 'xstate';
import type { copyLinkMachine } from './copyLink.machine';
import type { CopyLinkEvent } from './copyLink.types';

export function connectCopyLink(snapshot: SnapshotFrom<typeof copyLinkMachine>, send: (event: CopyLinkEvent) => void) {
  const isCopied = snapshot.matches('copied');
  return {
    isCopied,
    buttonLabel: isCopied ? 'Copied!' : 'Copy Link',
    /** Copy the magic link: the machine writes it to the clipboard and says how it went. */
    copy: (text: string) => send({ type: 'copy.request', text }),
  };
}
