import fs from 'node:fs';
import tls from 'node:tls';
import { ConfigError } from '../../config/config-error.ts';
import type { Config } from '../../config/settings.ts';

export type TlsOptions = Pick<tls.SecureContextOptions, 'cert' | 'key' | 'pfx' | 'passphrase'>;

function read(file: string, flag: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new ConfigError(`--${flag} ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Fix: point --${flag} at a readable file.`);
  }
}

/** Reads and checks the TLS material at startup, so a bad file fails now, not at the first client. */
export function tlsOptions(config: Config): TlsOptions | undefined {
  const given = config.httpsCert || config.httpsKey || config.httpsPfx;
  if (config.httpProtocol === 'http') {
    if (given) throw new ConfigError('--https-cert/--https-key/--https-pfx are set but --http-protocol is http. Fix: add --http-protocol https, or drop the TLS flags.');
    return undefined;
  }
  if (config.httpsPfx && (config.httpsCert || config.httpsKey))
    throw new ConfigError('--https-pfx cannot be combined with --https-cert/--https-key. Fix: use either the PFX file or the PEM pair.');
  let options: TlsOptions;
  if (config.httpsPfx) options = { pfx: read(config.httpsPfx, 'https-pfx') };
  else if (config.httpsCert && config.httpsKey) options = { cert: read(config.httpsCert, 'https-cert'), key: read(config.httpsKey, 'https-key') };
  else throw new ConfigError('--http-protocol https needs --https-cert and --https-key (PEM), or --https-pfx. Fix: pass them (env STEALTH_PLAYWRIGHT_MCP_HTTPS_CERT/_KEY/_PFX).');
  if (config.httpsPassphrase) options.passphrase = config.httpsPassphrase;
  try {
    tls.createSecureContext(options);
  } catch (error) {
    throw new ConfigError(`The TLS certificate/key cannot be used: ${(error as Error).message}. Fix: check that the key belongs to the certificate, the files are PEM (or PKCS#12 for --https-pfx) and the passphrase is right.`);
  }
  return options;
}
