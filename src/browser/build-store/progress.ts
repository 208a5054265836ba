import type { Logger } from '../../log.ts';

export interface Progress {
  update(bytes: number): void;
  done(bytes: number): void;
}

const MB = 1024 * 1024;
const mb = (n: number) => (n / MB).toFixed(1);

/**
 * Download progress on stderr, never stdout (the MCP channel): a redrawn bar
 * with bytes and rate when stderr is a terminal, otherwise a line per quarter
 * through the logger so a client's log stays short.
 */
export function progressReporter(log: Logger, label: string, total: number | undefined, stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = performance.now();
  const rate = (bytes: number) => `${mb(bytes / Math.max((performance.now() - started) / 1000, 0.001))} MB/s`;
  if (stream.isTTY) {
    let last = 0;
    const draw = (bytes: number) => {
      const width = 24;
      const share = total ? Math.min(bytes / total, 1) : 0;
      const bar = total ? `[${'#'.repeat(Math.round(share * width)).padEnd(width, '-')}] ${Math.floor(share * 100)}% ` : '';
      stream.write(`\r${label} ${bar}${mb(bytes)}${total ? `/${mb(total)}` : ''} MB ${rate(bytes)}\x1b[K`);
    };
    return {
      update(bytes) {
        if (performance.now() - last < 100) return;
        last = performance.now();
        draw(bytes);
      },
      done(bytes) {
        draw(bytes);
        stream.write('\n');
      },
    };
  }
  let nextQuarter = 1;
  log.info(`${label}: ${total ? `${mb(total)} MB` : 'size unknown'}`);
  return {
    update(bytes) {
      if (!total || bytes < (total * nextQuarter) / 4 || nextQuarter >= 4) return;
      while (nextQuarter < 4 && bytes >= (total * nextQuarter) / 4) nextQuarter++;
      log.info(`${label}: ${Math.floor((bytes / total) * 100)}% (${mb(bytes)} MB, ${rate(bytes)})`);
    },
    done(bytes) {
      log.info(`${label}: done, ${mb(bytes)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s (${rate(bytes)})`);
    },
  };
}
