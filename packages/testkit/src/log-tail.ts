import { readFile } from 'node:fs/promises';

/** The last `lines` lines of a log file ('' when it does not exist yet). */
export async function logTail(path: string, lines = 40): Promise<string> {
  try {
    const text = await readFile(path, 'utf8');
    return text.split('\n').slice(-lines - 1).join('\n').trimEnd();
  } catch {
    return '';
  }
}
