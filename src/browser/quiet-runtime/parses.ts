import vm from 'node:vm';

/** Whether `source` parses as a script (a rewritten source that does not goes as it came). */
export function parses(source: string): boolean {
  try {
    new vm.Script(source);
    return true;
  } catch {
    return false;
  }
}
