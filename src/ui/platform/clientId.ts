/** The client id (SPEC §3 Local browser storage): a random UUID generated once and kept under 'lectern.clientId'. */
import type { KeyValueStore } from './storage';

export const CLIENT_ID_KEY = 'clientId';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // crypto.randomUUID only exists in secure contexts; build the same v4 UUID from getRandomValues elsewhere.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Read the stored client id, generating and storing one the first time. */
export function getOrCreateClientId(store: KeyValueStore): string {
  const stored = store.get(CLIENT_ID_KEY);
  if (stored && UUID.test(stored)) return stored;
  const id = randomUuid();
  store.set(CLIENT_ID_KEY, id);
  return id;
}
