import * as v from 'valibot';
import type { Kind } from './kinds.ts';

// Kinds for the stealth build settings (download mirror, pinned hash, licence).

export const httpUrl: Kind<string> = {
  accepts: 'an http:// or https:// URL',
  schema: v.pipe(
    v.string(),
    v.trim(),
    v.url(),
    // Valibot runs a pipe's checks even after v.url() failed: parse defensively.
    v.check((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol)),
    // A base is joined with paths; a trailing slash would double up.
    v.transform((u) => u.replace(/\/+$/, '')),
  ),
};

export const sha256Hex: Kind<string> = {
  accepts: 'a SHA-256 as 64 hexadecimal characters',
  schema: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(/^[0-9a-f]{64}$/)),
};

export const licenceKey: Kind<string> = {
  accepts: 'a licence key (8 to 512 printable characters, no spaces)',
  schema: v.pipe(v.string(), v.trim(), v.regex(/^[\x21-\x7e]{8,512}$/)),
};
