/** Magic link copy (SPEC §2 'Share with Students' / class code banner, §4 Magic link copy). */
import type { ActorOutcome } from '../shared/outcome';

export type CopyLinkEvent =
  /** 'Copy Link': write this text (the magic link) to the clipboard. */
  | { type: 'copy.request'; text: string }
  /** Raised when the confirmation timer of `copied` fires. */
  | { type: 'copy.confirmationDone' };

/** What the clipboard write (invoked in `copying`) answers. */
export type CopyLinkDone = ActorOutcome<'copy', unknown>;

export type CopyLinkState = 'idle' | 'copying' | 'copied';
