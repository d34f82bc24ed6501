import { describe, expect, it } from 'vitest';
import { planFor, readersPerCore, type Assumptions, type Measured } from '../../bench/capacityPlan';

const measured: Measured = { cpuMsPerPage: 1, cpuMsPerPageWithCdn: 0.5, mp3BytesPerPage: 200_000, serverRssMb: 200, connectionsPerServer: 10 };
const assumptions: Assumptions = { secondsPerPage: 30, shareAtOnce: 1, cpuTarget: 0.5, coresPerServer: 2, minServers: 2, spareConnections: 5 };

describe('capacity arithmetic', () => {
  it('a core at half load holds the readers whose pages cost half a second of CPU a second', () => {
    // 1 ms of CPU per page, a page every 30 s: 0.5 × 30,000 ms / 1 ms = 15,000 readers.
    expect(readersPerCore(1, { secondsPerPage: 30, cpuTarget: 0.5 })).toBe(15_000);
    expect(readersPerCore(3, { secondsPerPage: 20, cpuTarget: 0.5 })).toBe(3_333);
  });

  it('refuses a CPU cost that is not positive', () => {
    expect(() => readersPerCore(0, { secondsPerPage: 30, cpuTarget: 0.5 })).toThrow('cpuMsPerPage must be positive');
  });

  it('plans at least two servers, one more than the cores need, with their pools and the audio traffic', () => {
    const school = planFor(500, measured, assumptions);
    expect(school).toEqual({
      students: 500,
      atOnce: 500,
      cores: 0.03,
      coresWithCdn: 0.02,
      servers: 2,
      serversWithCdn: 2,
      memoryMb: 400,
      pgConnections: 25,
      // 500 × 200,000 bytes × 8 bits / 30 s = 26.7 Mbit/s
      audioMbitPerS: 26.7,
    });
    // 60,000 readers at once need 4 cores: two 2-core servers, plus one spare.
    const big = planFor(120_000, measured, { ...assumptions, shareAtOnce: 0.5 });
    expect(big.atOnce).toBe(60_000);
    expect(big.cores).toBe(4);
    expect(big.servers).toBe(3);
    expect(big.coresWithCdn).toBe(2);
    expect(big.serversWithCdn).toBe(2);
    expect(big.pgConnections).toBe(35);
  });
});
