/**
 * The route table's test for a version segment. The reader address rules live once, in src/domain/readerUrl.ts
 * (parseReaderPath, buildReaderPath), and src/domain/routes.ts builds every address from them.
 */
import { isVersionSegment } from '../../../domain/readerUrl';

/** 'v' followed by digits. */
export function isVersion(value: string | undefined): value is string {
  return value !== undefined && isVersionSegment(value);
}
