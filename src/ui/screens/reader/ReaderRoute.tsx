/**
 * The reader's routes, loaded lazily (its own chunk with the engine): the reader entry (/{slug}/read,
 * /{slug}/{version}/read) and the reader address. Each tells the engine what the address asks for; the engine
 * opens the publication and puts the canonical address back through its navigation port, which wouter follows.
 */
import type { ParsedReaderPath } from '../../../domain/readerUrl';
import { useAddressSync, useReaderLifetime } from './readerHooks';
import { ReaderScreen } from './ReaderScreen';

export type ReaderRouteProps =
  /** Reader entry: the stored position of this title when its editions still exist, else its default reader. */
  | { mode: 'entry'; slug: string; version?: string }
  /** A reader address, parsed; an old address without a version is opened and replaced by the engine. */
  | { mode: 'read'; address: ParsedReaderPath };

export function ReaderRoute(props: ReaderRouteProps) {
  useReaderLifetime();
  const slug = props.mode === 'entry' ? props.slug : props.address.slug;
  const key =
    props.mode === 'entry'
      ? `entry|${props.slug}|${props.version ?? ''}`
      : `read|${JSON.stringify([props.address.slug, props.address.version, props.address.primary, props.address.secondary, props.address.position])}`;

  useAddressSync(key, () => {
    if (props.mode === 'entry') {
      return { type: 'reader.open', request: { slug: props.slug, version: props.version }, useStoredPosition: true };
    }
    const a = props.address;
    const request = { slug: a.slug, primary: a.primary ?? undefined, secondary: a.secondary, position: a.position };
    // Without a version the latest applies, and the engine's address sync writes the canonical form.
    if (a.version === null) return { type: 'reader.open', request };
    return { type: 'reader.sync' as const, request: { ...request, version: a.version } };
  });

  return <ReaderScreen slug={slug} />;
}

export default ReaderRoute;
