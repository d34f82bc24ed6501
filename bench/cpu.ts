/**
 * CPU time of this process and of its children, for the narration benches: the native narration helpers
 * (server/narration/native.ts) are child processes, which process.cpuUsage() does not see. Linux (/proc); where
 * there is no /proc only this process is counted.
 */
import fs from 'node:fs';

/** The CPU of a process from /proc/<pid>/stat, seconds: its own, and with `ended` only that of its waited-for children. */
function procCpu(pid: number | 'self', part: 'own' | 'ended'): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const ticks = part === 'own' ? Number(f[11]) + Number(f[12]) : Number(f[13]) + Number(f[14]);
    return ticks / 100;
  } catch {
    return 0;
  }
}

/** The live children of this process (every thread's), by pid. */
function childPids(): number[] {
  try {
    return fs
      .readdirSync('/proc/self/task')
      .flatMap((tid) => fs.readFileSync(`/proc/self/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  } catch {
    return [];
  }
}

/** CPU seconds so far of this process (every thread) and of its children, running and ended. */
export function processTreeCpuSeconds(): number {
  const own = process.cpuUsage();
  const live = childPids().reduce((sum, pid) => sum + procCpu(pid, 'own'), 0);
  return (own.user + own.system) / 1e6 + procCpu('self', 'ended') + live;
}
