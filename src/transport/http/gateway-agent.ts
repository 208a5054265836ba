import net from 'node:net';
import type { Logger } from '../../log.ts';
import type { SessionRegistry } from '../../session/session-registry.ts';

/**
 * HAProxy's agent-check protocol on its own TCP port: one line per connection.
 * `up N%` sets the replica's weight in proportion to its free session slots
 * (so new sessions go to the least-loaded replica); `drain` (full or shutting
 * down) takes it out of the balance while requests of its existing sessions
 * still reach it by their id. Only numbers leave this port, never a session id.
 */
export function agentReply(registry: Pick<SessionRegistry<unknown>, 'active' | 'pending' | 'draining' | 'limits'>): string {
  const used = registry.active + registry.pending;
  if (registry.draining || used >= registry.limits.max) return 'drain\n';
  const free = registry.limits.max - used;
  return `up ready ${Math.max(1, Math.round((100 * free) / registry.limits.max))}%\n`;
}

export async function startGatewayAgent(host: string, port: number, registry: SessionRegistry<unknown>, log: Logger): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.end(agentReply(registry));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const bound = (server.address() as net.AddressInfo).port;
  log.info(`gateway agent (HAProxy agent-check) on ${host}:${bound}`);
  return { port: bound, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
