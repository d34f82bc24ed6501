/**
 * Client secrets of schools' OpenID providers, encrypted at rest: AES-256-GCM with a key derived (HKDF-SHA256)
 * from the auth secret (BETTER_AUTH_SECRET, or DATA_DIR/auth-secret; server/auth/config.ts). The stored form is
 * `v1.<iv>.<tag>.<ciphertext>`, base64url parts. A database dump alone does not give the secrets away.
 */
import crypto from 'node:crypto';

const VERSION = 'v1';
const INFO = 'lectern sso client secret';

function keyOf(authSecret: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', Buffer.from(authSecret, 'utf8'), Buffer.alloc(0), INFO, 32));
}

export function encryptSecret(plain: string, authSecret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(authSecret), iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

/** The plain secret, or null when it cannot be decrypted (another auth secret, or a damaged value). */
export function decryptSecret(stored: string, authSecret: string): string | null {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) return null;
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(authSecret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
