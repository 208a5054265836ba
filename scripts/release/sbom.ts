import crypto from 'node:crypto';

// CycloneDX 1.5 documents (JSON). The npm one is npm's own (`npm sbom`); the
// image one lists what the image is made of: each Debian package copied into
// it (name, version, architecture, as a purl scanners match against the Debian
// security tracker) and the compiled server binary with its SHA-256.

export function npmSbom(npmOutput: string): Record<string, unknown> {
  const doc = JSON.parse(npmOutput) as Record<string, unknown>;
  if (doc.bomFormat !== 'CycloneDX') throw new Error('npm sbom did not write a CycloneDX document');
  return doc;
}

export interface ImageFacts {
  version: string;
  /** The manifest list's digest in the registries. */
  digest: string;
  /** `name<TAB>version<TAB>arch` lines, written into the image at build time. */
  packages: string;
  binarySha256: string;
}

export function imageSbom(facts: ImageFacts): Record<string, unknown> {
  const debs = facts.packages
    .split('\n')
    .map((line) => line.split('\t'))
    .filter((f) => f.length === 3 && f[0])
    .map(([name, version, arch]) => ({
      type: 'library',
      'bom-ref': `deb:${name}`,
      name,
      version,
      purl: `pkg:deb/debian/${name}@${encodeURIComponent(version!)}?arch=${arch}&distro=debian-12`,
      supplier: { name: 'Debian' },
    }));
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    serialNumber: `urn:uuid:${crypto.randomUUID()}`,
    version: 1,
    metadata: {
      timestamp: new Date().toISOString(),
      component: {
        type: 'container',
        'bom-ref': 'image',
        name: 'stealth-playwright-mcp',
        version: facts.version,
        hashes: [{ alg: 'SHA-256', content: facts.digest.replace(/^sha256:/, '') }],
        purl: `pkg:oci/stealth-playwright-mcp@${encodeURIComponent(facts.digest)}`,
      },
    },
    components: [
      {
        type: 'application',
        'bom-ref': 'binary',
        name: 'stealth-playwright-mcp',
        version: facts.version,
        description: 'The Bun-compiled server binary (/usr/local/bin/stealth-playwright-mcp)',
        hashes: [{ alg: 'SHA-256', content: facts.binarySha256 }],
        purl: `pkg:npm/stealth-playwright-mcp@${facts.version}`,
      },
      ...debs,
    ],
    dependencies: [{ ref: 'image', dependsOn: ['binary', ...debs.map((d) => d['bom-ref'])] }],
  };
}
