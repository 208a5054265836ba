// An in-toto Statement v1 with a SLSA Provenance v1 predicate: the subjects
// (the image's manifest list, the npm tarball, the binary), the source and
// revision they were built from, the base image they rest on, and the builder.

export interface ProvenanceFacts {
  repo: string;
  registries: string[];
  digest: string;
  version: string;
  revision: string;
  tarball: string;
  tarballSha256: string;
  binarySha256: string;
  /** The pinned base image (name@digest). */
  base: string;
  startedOn: string;
  arm64: string;
  podman: string;
  host: string;
}

const SOURCE = 'https://github.com/stealth-playwright-mcp/stealth-playwright-mcp';

export function provenance(f: ProvenanceFacts): Record<string, unknown> {
  const sha = (d: string) => ({ sha256: d.replace(/^sha256:/, '') });
  return {
    _type: 'https://in-toto.io/Statement/v1',
    subject: [
      ...f.registries.map((r) => ({ name: `${r}/${f.repo}`, digest: sha(f.digest), annotations: { tags: [f.version, 'latest'] } })),
      { name: f.tarball, digest: sha(f.tarballSha256) },
      { name: `${f.repo} binary (linux/amd64)`, digest: sha(f.binarySha256) },
    ],
    predicateType: 'https://slsa.dev/provenance/v1',
    predicate: {
      buildDefinition: {
        buildType: `${SOURCE}/blob/main/scripts/release/publish.ts`,
        externalParameters: { source: `git+${SOURCE}@${f.revision}`, version: f.version, registries: f.registries },
        internalParameters: { arm64: f.arm64 },
        resolvedDependencies: [
          { uri: `git+${SOURCE}`, digest: { gitCommit: f.revision } },
          { uri: `oci://${f.base.split('@')[0]}`, digest: sha(f.base.split('@')[1] ?? '') },
        ],
      },
      runDetails: {
        builder: { id: `${f.host}/${f.podman.replace(/\s+/g, '-')}` },
        metadata: { invocationId: `${f.version}-${f.revision.slice(0, 12)}`, startedOn: f.startedOn, finishedOn: new Date().toISOString() },
      },
    },
  };
}
