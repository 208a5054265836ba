import net from 'node:net';
import { readLines } from './protocol.ts';

/** The whole private request, connect to reply (issue 7); the orchestrator kills the command after 3 s. */
export const HEALTH_REQUEST_MS = 2_500;

export interface HealthResult {
  healthy: boolean;
  /** One line for the orchestrator's health log. */
  summary: string;
}

/** Asks the launcher over its private socket; any failure to get a healthy answer in time is unhealthy. */
export function askHealth(socketPath: string, timeoutMs = HEALTH_REQUEST_MS): Promise<HealthResult> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    let settled = false;
    const settle = (result: HealthResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => settle({ healthy: false, summary: `unhealthy: no answer from the launcher within ${timeoutMs} ms (${socketPath})` }), timeoutMs);
    socket.once('connect', () => socket.write('{"type":"health"}\n'));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      settle({ healthy: false, summary: `unhealthy: cannot reach the launcher's health socket ${socketPath}: ${error.code ?? error.message}` }),
    );
    socket.once('close', () => settle({ healthy: false, summary: `unhealthy: the launcher closed the health socket without an answer` }));
    readLines(socket, (report) => {
      const healthy = report.ok === true;
      settle({ healthy, summary: `${healthy ? 'healthy' : 'unhealthy'}: server ${String(report.server)}, display ${String(report.display)}` });
    });
  });
}
