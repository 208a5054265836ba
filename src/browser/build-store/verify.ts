import crypto from 'node:crypto';
import { BuildStoreError, FIXES } from './errors.ts';

/** Short id of a trusted key, for receipts and info (never secret). */
export function keyId(rawBase64: string): string {
  return crypto.createHash('sha256').update(Buffer.from(rawBase64, 'base64')).digest('hex').slice(0, 16);
}

function strictBase64(text: string): Buffer | undefined {
  const trimmed = text.trim();
  const bytes = Buffer.from(trimmed, 'base64');
  // Node's decoder skips junk; a round trip rejects anything that is not clean base64.
  return bytes.toString('base64') === trimmed ? bytes : undefined;
}

/**
 * Checks the detached Ed25519 signature (`SHA256SUMS.sig`, base64 text) over the
 * raw manifest bytes against the pinned keys; returns the id of the key that signed.
 */
export function verifyManifestSignature(manifest: Buffer, sigText: Buffer, trustedKeys: readonly string[], where: string): string {
  const signature = strictBase64(sigText.toString('latin1'));
  if (!signature || signature.length !== 64)
    throw new BuildStoreError('verification', `The signature at ${where} is malformed (expected base64 of a 64-byte Ed25519 signature). Fix: ${FIXES.verification}.`);
  for (const raw of trustedKeys) {
    const x = Buffer.from(raw, 'base64');
    if (x.length !== 32) continue;
    const key = crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: x.toString('base64url') }, format: 'jwk' });
    if (crypto.verify(null, manifest, key, signature)) return keyId(raw);
  }
  throw new BuildStoreError(
    'verification',
    `The checksum manifest's signature (${where}) does not verify against the vendor's pinned key: the manifest was altered or not signed by the vendor. Fix: ${FIXES.verification}.`,
  );
}
