/**
 * The arithmetic of docs/capacity.md: from what the capacity bench measured (server CPU per page a reader turns,
 * memory per server, MP3 bytes per page) and stated assumptions about how students read, how many readers a core
 * holds and what a school or district would run. Pure functions, so the figures in the document can be checked.
 */

export interface Measured {
  /** Server CPU ms per page a reader turns (passage, narration answer, MP3 ranges, catalog and title visits). */
  cpuMsPerPage: number;
  /** The same with the MP3s served by a CDN in front of /audio. */
  cpuMsPerPageWithCdn: number;
  /** MP3 bytes a reader receives per page. */
  mp3BytesPerPage: number;
  /** A server's resident memory under load, MB. */
  serverRssMb: number;
  /** PostgreSQL connections one server's pool opens at most. */
  connectionsPerServer: number;
}

export interface Assumptions {
  /** How long a student stays on a page, seconds (reading or listening). */
  secondsPerPage: number;
  /** The share of students reading at the same moment at the busiest time. */
  shareAtOnce: number;
  /** The share of a core the plan lets the app use (headroom for peaks, the log, the OS). */
  cpuTarget: number;
  /** Cores per server. */
  coresPerServer: number;
  /** Servers at the least, so that one can fail or be updated. */
  minServers: number;
  /** Connections beyond the servers' pools: the admin CLI, backups, a narration worker. */
  spareConnections: number;
}

/** Readers one core holds at `cpuTarget`, each turning a page every `secondsPerPage`. */
export function readersPerCore(cpuMsPerPage: number, a: Pick<Assumptions, 'secondsPerPage' | 'cpuTarget'>): number {
  if (!(cpuMsPerPage > 0)) throw new Error('cpuMsPerPage must be positive');
  return Math.floor((a.cpuTarget * 1000 * a.secondsPerPage) / cpuMsPerPage);
}

export interface Plan {
  students: number;
  /** Students reading at the busiest moment. */
  atOnce: number;
  /** Cores the app needs for them, without and with a CDN in front of /audio. */
  cores: number;
  coresWithCdn: number;
  /** Servers (at least `minServers`, and enough that all but one still hold the load). */
  servers: number;
  serversWithCdn: number;
  /** Memory of the servers together, MB. */
  memoryMb: number;
  /** PostgreSQL max_connections to allow. */
  pgConnections: number;
  /** MP3 traffic out of the servers at the busiest moment, Mbit/s; a CDN takes it over (its cache fills aside). */
  audioMbitPerS: number;
}

/** What `students` would run: cores, servers, memory, PostgreSQL connections and the audio traffic a CDN takes off. */
export function planFor(students: number, m: Measured, a: Assumptions): Plan {
  const atOnce = Math.ceil(students * a.shareAtOnce);
  const cores = atOnce / readersPerCore(m.cpuMsPerPage, a);
  const coresWithCdn = atOnce / readersPerCore(m.cpuMsPerPageWithCdn, a);
  // Enough servers for the cores, plus one so that losing any one leaves enough.
  const serversFor = (c: number) => Math.max(a.minServers, Math.ceil(c / a.coresPerServer) + 1);
  const servers = serversFor(cores);
  return {
    students,
    atOnce,
    cores: Math.round(cores * 100) / 100,
    coresWithCdn: Math.round(coresWithCdn * 100) / 100,
    servers,
    serversWithCdn: serversFor(coresWithCdn),
    memoryMb: servers * m.serverRssMb,
    pgConnections: servers * m.connectionsPerServer + a.spareConnections,
    audioMbitPerS: Math.round(((atOnce * m.mp3BytesPerPage * 8) / a.secondsPerPage / 1e6) * 10) / 10,
  };
}
