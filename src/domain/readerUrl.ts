/** Building reader addresses (SPEC §2 Reader URL shape): /{slug}/{version}/{language}:{level}[/{secondaryLanguage}:{secondaryLevel}]/{position}, lowercased. */
export interface ReaderAddress {
  slug: string;
  version: string;
  primary: { language: string; level: string };
  secondary?: { language: string; level: string } | null;
  position: number;
}

export function buildReaderPath(address: ReaderAddress): string {
  const parts = [address.slug, address.version, `${address.primary.language}:${address.primary.level}`];
  if (address.secondary) parts.push(`${address.secondary.language}:${address.secondary.level}`);
  parts.push(String(Math.max(1, Math.floor(address.position))));
  return `/${parts.join('/')}`.toLowerCase();
}
