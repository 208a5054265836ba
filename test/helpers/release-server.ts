import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PINNED_VERSIONS } from '../../src/browser/build-store/platform.ts';

// A stand-in for the vendor on 127.0.0.1 that speaks the real protocol: per
// version directories with the archive, a SHA256SUMS with a version= line and
// an Ed25519 SHA256SUMS.sig; the keyed API; the licence check. The "browser"
// in the archive is a launcher script that execs the Debian Chromium.
export const TAG = 'linux-x64';
export const VERSION = PINNED_VERSIONS[TAG];
export const KEYED_VERSION = '151.0.7800.100.2';
export const VALID_KEY = 'cb_test_valid_key_0123456789abcdef';
export const ARCHIVE = `cloakbrowser-${TAG}.tar.gz`;

export type Mode = 'ok' | 'tamper' | 'bad-signature' | 'wrong-version' | 'no-signature' | 'truncate' | 'missing' | 'slow';

export interface ReleaseServer {
  url: string;
  /** Base64 raw Ed25519 public key that signs this server's manifests (trust it via STEALTH_TEST_TRUSTED_KEY). */
  publicKey: string;
  archive: Buffer;
  sha256: string;
  mode: Mode;
  /** Full archive responses started, per path. */
  archiveRequests: string[];
  /** Authorization headers seen on keyed downloads. */
  authorizations: string[];
  /** What /api/license/session/count answers: seats in use (by anyone) and the plan's limit. */
  seats: { active: number; limit: number };
  /** Seat counts asked for. */
  seatQueries: number;
  close(): Promise<void>;
}

const CHROMIUM = process.env.STEALTH_TEST_CHROMIUM ?? '/usr/lib/chromium/chromium';

function makeArchive(padBytes: number, launcher: 'script' | 'static'): Buffer {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'spm-release-'));
  try {
    const top = path.join(work, `cloakbrowser-${TAG}`);
    fs.mkdirSync(top);
    // Like the real build, `--version` prints the public four-part Chromium
    // version, never the build's own fifth part.
    const publicVersion = VERSION.split('.').slice(0, 4).join('.');
    // And the keyed build's licence refusals: keys ending in a marker make it exit as the real one does.
    const licence = `case "$CLOAKBROWSER_LICENSE_KEY" in
  *_seatlimit) [ -n "$CLOAKBROWSER_LICENSE_STATUS_FILE" ] && echo '{"status":"seat_limit","seats":1,"in_use":1}' > "$CLOAKBROWSER_LICENSE_STATUS_FILE"; exit 76;;
  *_expired) exit 77;;
  *_offline) exit 78;;
esac`;
    if (launcher === 'static') {
      // For an image with no shell: the same answers from a static program (no licence refusals; keyless).
      const source = path.join(work, 'chrome.c');
      fs.writeFileSync(source, `#include <stdio.h>\n#include <string.h>\n#include <unistd.h>\nint main(int argc, char **argv) {\n  if (argc > 1 && strcmp(argv[1], "--version") == 0) { puts("Chromium ${publicVersion} "); return 0; }\n  argv[0] = "${CHROMIUM}";\n  execv(argv[0], argv);\n  perror("execv");\n  return 127;\n}\n`);
      execFileSync('gcc', ['-Os', '-static', '-o', path.join(top, 'chrome'), source]);
    } else fs.writeFileSync(path.join(top, 'chrome'), `#!/bin/sh\n[ "$1" = --version ] && { echo "Chromium ${publicVersion} "; exit 0; }\n${licence}\nexec ${CHROMIUM} "$@"\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(top, 'LICENSE.txt'), 'test build\n');
    // Incompressible padding, so a throttled download takes a while.
    fs.writeFileSync(path.join(top, 'resources.pak'), crypto.randomBytes(padBytes));
    fs.symlinkSync('chrome', path.join(top, 'chrome-link'));
    execFileSync('tar', ['-czf', path.join(work, ARCHIVE), '-C', work, `cloakbrowser-${TAG}`]);
    return fs.readFileSync(path.join(work, ARCHIVE));
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function rawPublicKey(key: crypto.KeyObject): string {
  return Buffer.from(key.export({ format: 'jwk' }).x!, 'base64url').toString('base64');
}

/** launcher 'static': the build's `chrome` is a static program, for an image without a shell. */
export async function startReleaseServer(options: { padBytes?: number; launcher?: 'script' | 'static' } = {}): Promise<ReleaseServer> {
  const signer = crypto.generateKeyPairSync('ed25519');
  const stranger = crypto.generateKeyPairSync('ed25519');
  const archive = makeArchive(options.padBytes ?? 256 * 1024, options.launcher ?? 'script');
  const sha256 = crypto.createHash('sha256').update(archive).digest('hex');
  const manifest = (version: string) => Buffer.from(`${sha256}  ${ARCHIVE}\n${'0'.repeat(64)}  cloakbrowser-darwin-arm64.tar.gz\nversion=${version}\n`);
  const sign = (data: Buffer, key: crypto.KeyObject) => Buffer.from(crypto.sign(null, data, key).toString('base64'));

  const state: ReleaseServer = {
    url: '',
    publicKey: rawPublicKey(signer.publicKey),
    archive,
    sha256,
    mode: 'ok',
    archiveRequests: [],
    authorizations: [],
    seats: { active: 0, limit: 10 },
    seatQueries: 0,
    close: async () => {},
  };

  const sendArchive = (req: http.IncomingMessage, res: http.ServerResponse) => {
    state.archiveRequests.push(req.url ?? '');
    if (state.mode === 'missing') return void res.writeHead(404).end('no such build');
    let body = archive;
    if (state.mode === 'tamper') {
      body = Buffer.from(archive);
      body[body.length - 100]! ^= 0xff;
    }
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': body.length });
    if (state.mode === 'truncate') {
      res.write(body.subarray(0, body.length >> 1), () => res.destroy());
      return;
    }
    if (state.mode === 'slow') {
      let offset = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(body.subarray(offset, offset + 32 * 1024));
        offset += 32 * 1024;
        if (offset >= body.length) {
          clearInterval(timer);
          res.end();
        }
      }, 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.end(body);
  };

  const sendManifest = (version: string, file: string, res: http.ServerResponse) => {
    const signedVersion = state.mode === 'wrong-version' ? '140.0.0.0.1' : version;
    const m = manifest(signedVersion);
    if (file === 'SHA256SUMS') return void res.writeHead(200).end(m);
    if (state.mode === 'no-signature') return void res.writeHead(404).end();
    res.writeHead(200).end(sign(m, state.mode === 'bad-signature' ? stranger.privateKey : signer.privateKey));
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let m: RegExpMatchArray | null;
    if ((m = url.pathname.match(/^\/chromium-v([\d.]+)\/(.+)$/)) && m[1] === VERSION) {
      if (m[2] === ARCHIVE) return sendArchive(req, res);
      if (m[2] === 'SHA256SUMS' || m[2] === 'SHA256SUMS.sig') return sendManifest(VERSION, m[2], res);
    }
    if (url.pathname === '/api/download/version') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ version: KEYED_VERSION, requested_channel: 'stable', resolved_channel: 'stable', fallback: false }));
    if (url.pathname === `/api/download/${KEYED_VERSION}`) {
      state.authorizations.push(String(req.headers.authorization));
      // The valid key, or it with a refusal marker the fake build acts on at launch.
      if (!String(req.headers.authorization).startsWith(`Bearer ${VALID_KEY}`) || req.headers['x-platform'] !== TAG) return void res.writeHead(401).end('bad key');
      return sendArchive(req, res);
    }
    if ((m = url.pathname.match(/^\/releases\/pro\/chromium-v([\d.]+)\/(SHA256SUMS(?:\.sig)?)$/)) && m[1] === KEYED_VERSION) return sendManifest(KEYED_VERSION, m[2]!, res);
    if (url.pathname === '/api/license/session/count' && req.method === 'POST') {
      state.seatQueries++;
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state.seats));
    }
    if (url.pathname === '/api/license/validate' && req.method === 'POST') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const key = (JSON.parse(body || '{}') as { license_key?: string }).license_key;
        // Keys with a launch-refusal marker validate (the build refuses them later); a revoked one does not.
        const valid = typeof key === 'string' && key.startsWith(VALID_KEY) && !key.endsWith('_revoked');
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ valid, plan: valid ? 'solo' : null, expires: valid ? '2099-01-01T00:00:00Z' : null }));
      });
      return;
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
