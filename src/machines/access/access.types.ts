/** Access: who reads and what they may open (SPEC §4 Class code, §7 GET /visitors/me). */
import type { SettingWrite } from '../../domain/settings';

/** GET /visitors/me as the system uses it. */
export interface VisitorCheck {
  groupCodeValid: boolean;
  features: string[];
  titleIds?: number[];
}

export interface AccessInput {
  /** The stored class code, its visitor features and the titles they reach (the stored settings). */
  storedCode: string | null;
  features: string[];
  classTitleIds: number[] | null;
}

/**
 * What access tells the system whenever the features in force may have changed: who reads is known, the features
 * in force (the signed-in user's, else a valid class code's), the titles a class code's features reach (null when
 * they reach every title: a signed-in user, or no code), and the class code.
 */
export interface AccessFacts {
  known: boolean;
  features: string[];
  titleIds: number[] | null;
  classCode: string | null;
}

export interface AccessContext {
  /** The signed-in user's features; null when nobody is signed in. `known` once the system heard who reads. */
  user: { features: string[] | null; known: boolean };
  /** The class code, followed from its machine: the accepted code, whether its last check failed, its state, and the code last checked again. */
  code: { value: string | null; invalid: boolean; active: boolean; checked: string | null };
  /** The stored code's visitor features and the titles they reach. */
  visitor: { features: string[]; titleIds: number[] | null };
}

/** What the system tells access: who reads. A sign-in clears the class code (passed on to it). */
export type AccessEvent =
  | { type: 'user.loaded'; features?: string[] }
  | { type: 'user.features'; features: string[] | null }
  | { type: 'auth.signedOut' }
  | { type: 'auth.signedIn' };

/** What the class-code child asks of access (sendParent). */
export type AccessChildEvent =
  | { type: 'visitor.verify'; code: string }
  | { type: 'code.removeFromAddress' }
  | { type: 'code.store'; code: string }
  | { type: 'code.clear' };

export type AccessMachineEvent = AccessEvent | AccessChildEvent;

export type { SettingWrite };
