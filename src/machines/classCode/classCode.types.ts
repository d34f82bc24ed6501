/** Class code (SPEC §4 Class code, §5 Validation: class code, §8 Toasts). */

/** Where a typed code comes from: the class-code form (validated) or the reader's group-code panel (not validated). */
export type ClassCodeSource = 'form' | 'reader';

export interface ClassCodeInput {
  /** The code kept in storage from an earlier visit, if any. A stored code starts `active`. */
  storedCode: string | null;
}

export interface ClassCodeContext {
  /** The accepted code, kept while a new one is being verified; null when there is none. */
  code: string | null;
  /** The code being verified; null outside `verifying`. */
  pending: string | null;
  /** True when the last visitor check of the active code failed with an API error (menu shows '!'). @default false */
  lastCheckInvalid: boolean;
}

/**
 * Params of `verifyClassCode`: the system checks the code with `GET /visitors/me` (its `X-Group-Code` header), then
 * sends the outcome back. Once a code is accepted, the reader asks again, with the code, for each column that shows
 * a gate, at the same edition and position (docs/decisions.md "Spec rows settled").
 */
export interface VerifyClassCodeParams {
  code: string;
  /** Where the code came from; the check is the same for all (the reader's group-code panel applied no client check). */
  source: ClassCodeSource | 'link';
}

export type ClassCodeEvent =
  /** A typed code. From the form it must be exactly 8 alphanumeric characters; the reader's panel is not checked. */
  | { type: 'classCode.submit'; code: string; source: ClassCodeSource }
  /** A code from the address's query parameter; the engine removes it from the address. */
  | { type: 'classCode.fromLink'; code: string }
  /** Sent by the engine: the verification request succeeded. */
  | { type: 'classCode.verified' }
  /** Sent by the engine: the server answered that the code is not valid. `message` is the API's, for logs; the toast is fixed. */
  | { type: 'classCode.rejected'; message?: string }
  /** Sent by the engine: the verification request itself failed (429, network, 5xx): its message is shown, nothing is cleared. */
  | { type: 'classCode.verifyFailed'; message: string }
  /** Sent by the engine: a later visitor check answered groupCodeValid: false for the active code. */
  | { type: 'classCode.invalidated' }
  /** Sent by the engine: a later visitor check failed with an API error; the code is kept but marked invalid. */
  | { type: 'classCode.checkFailed'; message?: string }
  /** Sent by the engine: a later visitor check answered groupCodeValid: true. */
  | { type: 'classCode.checkPassed' }
  /** 'Clear Class Code' in the menu. */
  | { type: 'classCode.clear' }
  /** The user became signed in; signing in clears the class code. */
  | { type: 'auth.signedIn' };

export type ClassCodeState = 'init' | 'none' | 'verifying' | 'active';
