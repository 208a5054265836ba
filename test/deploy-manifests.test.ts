import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { parseFlags } from '../src/config/flags.ts';
import { settings } from '../src/config/settings.ts';
import { ROOT } from './helpers/server.ts';

const DIR = path.join(ROOT, 'deploy', 'kubernetes');
// kubernetes-models validates each object against the Kubernetes OpenAPI schema (no cluster needed).
const MODELS: Record<string, string> = {
  'v1/Service': 'kubernetes-models/v1/Service',
  'v1/ConfigMap': 'kubernetes-models/v1/ConfigMap',
  'apps/v1/StatefulSet': 'kubernetes-models/apps/v1/StatefulSet',
  'apps/v1/Deployment': 'kubernetes-models/apps/v1/Deployment',
  'policy/v1/PodDisruptionBudget': 'kubernetes-models/policy/v1/PodDisruptionBudget',
};

function documents(): Record<string, any>[] {
  return fs.readdirSync(DIR).filter((f) => f.endsWith('.yaml')).flatMap((f) => parseAllDocuments(fs.readFileSync(path.join(DIR, f), 'utf8')).map((d) => d.toJS()));
}

test('every Kubernetes manifest validates against the Kubernetes schema', async () => {
  const docs = documents();
  assert.ok(docs.length >= 6);
  for (const doc of docs) {
    const module = MODELS[`${doc.apiVersion}/${doc.kind}`];
    assert.ok(module, `no schema for ${doc.apiVersion} ${doc.kind}`);
    const { [doc.kind]: Model } = (await import(module)) as Record<string, new (d: unknown) => { validate(): void }>;
    assert.doesNotThrow(() => new Model!(doc).validate(), `${doc.kind} ${doc.metadata?.name}`);
  }
  // A broken one is caught (the validator is not a no-op).
  const { StatefulSet } = await import('kubernetes-models/apps/v1/StatefulSet');
  assert.throws(() => new StatefulSet({ metadata: { name: 'x' }, spec: { replicas: 'three' } } as never).validate());
});

test('the server container uses real flags and settings: replica id from the pod name, token from a Secret, read-only root, probes', () => {
  const set = documents().find((d) => d.kind === 'StatefulSet')!;
  const pod = set.spec.template.spec;
  const server = pod.containers[0];
  assert.doesNotThrow(() => parseFlags(server.args), 'every flag in args is one of ours');
  const envNames = new Set(Object.values(settings).map((s) => s.env));
  for (const e of server.env) assert.ok(envNames.has(e.name), `${e.name} is a setting`);
  const replica = server.env.find((e: any) => e.name === settings.httpReplicaId.env);
  assert.equal(replica.valueFrom.fieldRef.fieldPath, 'metadata.name');
  assert.ok(server.env.find((e: any) => e.name === settings.httpAuthToken.env).valueFrom.secretKeyRef);
  assert.equal(server.securityContext.readOnlyRootFilesystem, true);
  assert.deepEqual(server.volumeMounts.map((m: any) => m.mountPath).sort(), ['/data', '/dev/shm', '/home/node/.stealth', '/tmp', '/tmp/.X11-unix']);
  assert.equal(server.readinessProbe.httpGet.path, '/readyz');
  assert.equal(server.livenessProbe.httpGet.path, '/healthz');
  assert.ok(server.args.includes('--http-open-probes'), 'kubelet probes carry no token');
  assert.ok(pod.terminationGracePeriodSeconds >= 30);
  assert.ok(documents().some((d) => d.kind === 'PodDisruptionBudget'));
});

test("the gateway's HAProxy config passes haproxy -c and routes every replica of the StatefulSet", () => {
  const map = documents().find((d) => d.kind === 'ConfigMap')!;
  const cfg = map.data['haproxy.cfg'] as string;
  const replicas = documents().find((d) => d.kind === 'StatefulSet')!.spec.replicas as number;
  for (let i = 0; i < replicas; i++) assert.match(cfg, new RegExp(`use-server stealth-playwright-mcp-${i} if`));
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spm-k8s-')), 'haproxy.cfg');
  fs.writeFileSync(file, cfg);
  const check = spawnSync('haproxy', ['-c', '-f', file], { env: { PATH: process.env.PATH, MCP_TOKEN: 'x' }, encoding: 'utf8' });
  assert.equal(check.status, 0, check.stderr + check.stdout);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});
