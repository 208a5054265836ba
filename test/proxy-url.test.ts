import assert from 'node:assert/strict';
import { test } from 'node:test';
import { proxyMode, supportsInlineProxyAuth } from '../src/browser/proxy/proxy-mode.ts';
import { inlineProxyUrl, maskCredentialsIn, maskedProxy, parseProxyUrl, proxyServer } from '../src/browser/proxy/proxy-url.ts';

test('proxy URLs: credentials decoded, re-encoded inline, masked for display', () => {
  const spec = parseProxyUrl('http://us%40er:p%3Aa%3Ds%2Fs@proxy.example:8080');
  assert.deepEqual(spec, { scheme: 'http', host: 'proxy.example', port: 8080, username: 'us@er', password: 'p:a=s/s' });
  assert.equal(proxyServer(spec), 'http://proxy.example:8080');
  assert.equal(maskedProxy(spec), 'http://***:***@proxy.example:8080');
  assert.equal(inlineProxyUrl(spec), 'http://us%40er:p%3Aa%3Ds%2Fs@proxy.example:8080');
  assert.equal(maskCredentialsIn(`failed: ${inlineProxyUrl(spec)} said no to p:a=s/s`, spec), 'failed: http://***:***@proxy.example:8080 said no to ***');
  assert.deepEqual(parseProxyUrl('socks5h://10.0.0.1'), { scheme: 'socks5', host: '10.0.0.1', port: 1080 });
  assert.equal(parseProxyUrl('https://h:443').port, 443);
  for (const bad of ['proxy.example:8080', 'ftp://h:21', 'http://h:8080/path', 'http://:pw@h:1', 'http://u:%zz@h:1'])
    assert.throws(() => parseProxyUrl(bad), (error: Error) => !error.message.includes('pw') && error.name === 'ProxyUrlError', bad);
});

test('inline proxy credentials only on stealth builds at or above the vendor minimum for the platform', () => {
  assert.equal(supportsInlineProxyAuth({ stealthBuildVersion: '146.0.7680.177.5' }, 'linux-x64'), true);
  assert.equal(supportsInlineProxyAuth({ stealthBuildVersion: '146.0.7680.177.4' }, 'linux-x64'), false);
  assert.equal(supportsInlineProxyAuth({ stealthBuildVersion: '146.0.7680.177.3' }, 'linux-arm64'), false);
  assert.equal(supportsInlineProxyAuth({ stealthBuildVersion: '148.0.7778.215.3' }, 'darwin-arm64'), true);
  assert.equal(supportsInlineProxyAuth({ stealthBuildVersion: null }, 'linux-x64'), false, 'stock Chromium');
  const creds = parseProxyUrl('http://u:p@h:1');
  assert.equal(proxyMode(creds, true), 'inline');
  assert.equal(proxyMode(creds, false), 'driver');
  assert.equal(proxyMode(parseProxyUrl('socks5://u:p@h:1'), true), 'relay');
  assert.equal(proxyMode(parseProxyUrl('socks5://h:1'), false), 'driver');
});
