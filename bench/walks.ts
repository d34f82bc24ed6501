/**
 * The readers' walks the load and capacity benches share: free, voiced editions (one per title first), their first
 * passages narrated through the server's own narration, and the cache of those narrations between runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sleep, type Walk, type WalkPassage } from './capacityReaders';

/** The names the bench's narration cache holds (content keys, so a copy never goes stale). */
export const CACHE_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.(mp3|json)$/;

export async function getJson<T>(url: string): Promise<{ status: number; body: T }> {
  const res = await fetch(url);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: body as T };
}

interface PublicationDetail {
  slug: string;
  editions: { id: number; language: { code: string }; passageCount: number; audioEnabled: boolean }[];
}

/** Pick free, voiced editions (one per title first) and narrate their first passages through the server(s). */
export async function prepareWalks(url: string, editions: number, perEdition: number, log: (line: string) => void): Promise<Walk[]> {
  const list = await getJson<{ items: { slug: string }[] }>(`${url}/api/v1/publications?pageSize=100`);
  const candidates: { slug: string; editionId: number; language: string; passages: number }[] = [];
  for (const item of list.body.items) {
    const detail = await getJson<PublicationDetail>(`${url}/api/v1/publications/${item.slug}`);
    if (detail.status !== 200) continue;
    for (const e of detail.body.editions) {
      if (e.audioEnabled && e.passageCount >= 2) candidates.push({ slug: item.slug, editionId: e.id, language: e.language.code, passages: e.passageCount });
    }
  }
  const firsts = candidates.filter((c, i) => candidates.findIndex((d) => d.slug === c.slug) === i);
  const ordered = [...firsts, ...candidates.filter((c) => !firsts.includes(c))];
  const walks: Walk[] = [];
  for (const c of ordered) {
    if (walks.length >= editions) break;
    const passages: WalkPassage[] = [];
    for (let position = 1; position <= Math.min(perEdition, c.passages); position++) {
      const p = await getJson<{ id: number; licenseRequired: boolean; groupCodeRequired: boolean }>(`${url}/api/v1/passages?editionId=${c.editionId}&position=${position}`);
      if (p.status !== 200 || p.body.licenseRequired || p.body.groupCodeRequired) break;
      passages.push({ position, id: p.body.id, mp3: '', mp3Bytes: 0 });
    }
    if (passages.length === 0) continue;
    // Narration an anonymous reader may not hear answers 403: not a free reader's walk.
    const probe = await fetch(`${url}/api/v1/passages/${passages[0].id}/audio?editionId=${c.editionId}`);
    await probe.arrayBuffer();
    if (probe.status === 403) continue;
    walks.push({ slug: c.slug, editionId: c.editionId, language: c.language, passages });
  }
  if (walks.length === 0) throw new Error('No free, voiced edition to read');

  // The server's own narration (priority lane) makes or finds each one; 202 means ask again.
  const todo = walks.flatMap((w) => w.passages.map((p) => ({ w, p })));
  let done = 0;
  const worker = async () => {
    for (let job = todo.shift(); job; job = todo.shift()) {
      for (let attempt = 0; ; attempt++) {
        const a = await getJson<{ audio?: { url: string } }>(`${url}/api/v1/passages/${job.p.id}/audio?editionId=${job.w.editionId}`);
        if (a.status === 200 && a.body.audio) {
          job.p.mp3 = new URL(a.body.audio.url, url).pathname;
          break;
        }
        if (a.status !== 202 || attempt > 240) throw new Error(`Narration of passage ${job.p.id} answered ${a.status}`);
        await sleep(500);
      }
      const head = await fetch(`${url}${job.p.mp3}`, { method: 'HEAD' });
      job.p.mp3Bytes = Number(head.headers.get('content-length') ?? 0);
      if (++done % 10 === 0) log(`narrated ${done} passages`);
    }
  };
  await Promise.all([worker(), worker()]);
  return walks;
}

/** Copy narrations between the bench's cache and a directory (names are content keys, so a copy never goes stale). */
export function copyAudio(from: string, to: string): number {
  if (!fs.existsSync(from)) return 0;
  fs.mkdirSync(to, { recursive: true });
  let n = 0;
  for (const name of fs.readdirSync(from)) {
    if (!CACHE_NAME_RE.test(name) || fs.existsSync(path.join(to, name))) continue;
    fs.copyFileSync(path.join(from, name), path.join(to, name));
    n++;
  }
  return n;
}

