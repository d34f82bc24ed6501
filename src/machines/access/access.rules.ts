/** Pure access rules: the features in force (SPEC §4 Class code). */
import { resolveFeatures } from '../classCode';
import type { AccessContext, AccessFacts, AccessInput } from './access.types';

/** The context access starts from: the stored code taken as accepted until a check says otherwise. */
export function initialAccess(input: AccessInput): AccessContext {
  return {
    user: { features: null, known: false },
    code: { value: input.storedCode, invalid: false, active: input.storedCode !== null, checked: null },
    visitor: { features: input.features, titleIds: input.classTitleIds },
  };
}

/** The facts access tells the system: the user's features, else the valid class code's, which reach only its titles. */
export function accessFactsOf(context: AccessContext): AccessFacts {
  const { user, code, visitor } = context;
  const features = resolveFeatures(user.features ? { features: user.features } : null, code.value ? { groupCodeValid: !code.invalid, features: visitor.features } : null);
  return { known: user.known, features, titleIds: user.features || !code.value ? null : visitor.titleIds, classCode: code.value };
}
