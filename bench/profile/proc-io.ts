// This process's syscall and context-switch counters, for the profile drivers that count per request: read and
// write syscalls and bytes from /proc/self/io, voluntary and involuntary context switches from /proc/self/status.
// Counts a loaded machine does not change, unlike times.
import { readFileSync } from 'node:fs';

export function procCounters(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of readFileSync('/proc/self/io', 'utf8').split('\n')) {
    const [k, v] = line.split(': ');
    if (k && v) out[k] = Number(v);
  }
  for (const line of readFileSync('/proc/self/status', 'utf8').split('\n')) {
    const m = /^(voluntary_ctxt_switches|nonvoluntary_ctxt_switches):\s+(\d+)/.exec(line);
    if (m) out[m[1]!] = Number(m[2]);
  }
  return out;
}
