import type { SnapshotFrom } from 'xstate';
import { isValidClassCode } from './classCode.rules';
import type { classCodeMachine } from './classCode.machine';
import type { ClassCodeEvent } from './classCode.types';

export function connectClassCode(snapshot: SnapshotFrom<typeof classCodeMachine>, send: (event: ClassCodeEvent) => void) {
  const { code, lastCheckInvalid } = snapshot.context;
  return {
    /** The accepted code, or null. */
    code,
    hasCode: code !== null,
    isVerifying: snapshot.matches('verifying'),
    /** Whether the form's Submit is enabled for this text. */
    isValidInput: (text: string) => isValidClassCode(text),
    /** 'Class Code: {code}', with '!' when the last visitor check said invalid; null without a code. */
    menuLabel: code === null ? null : `Class Code: ${code}${lastCheckInvalid ? '!' : ''}`,
    /** Submit the class-code form's text (normalized by the machine; ignored unless valid). */
    submit: (text: string) => send({ type: 'classCode.submit', code: text, source: 'form' }),
    clear: () => send({ type: 'classCode.clear' }),
  };
}
