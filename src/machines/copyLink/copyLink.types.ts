/** Magic link copy (SPEC §2 'Share with Students' / class code banner, §4 Magic link copy). */
export type CopyLinkEvent =
  /** Sent by the engine: the magic link was written to the clipboard. */
  | { type: 'copy.succeeded' }
  /** Sent by the engine: writing to the clipboard failed. */
  | { type: 'copy.failed' }
  /** Sent by the engine when the confirmation timer of `copied` fires. */
  | { type: 'copy.confirmationDone' };

export type CopyLinkState = 'idle' | 'copied';
