/**
 * The reader system's I/O, from the engine's ports: the load actors and the named effects its machines leave to
 * the engine (src/machines/readerSystem, src/machines/listenFlow). Each is a one-line adapter of a port; the
 * decisions are the machines'.
 */
import { fromPromise } from 'xstate';
import { paths, withQuery } from '../domain/routes';
import { PortFailure } from '../domain/failures';
import { formatPlaybackSpeedParam } from '../domain/playbackSpeed';
import { readerSystemChildren, readerSystemMachine } from '../machines/readerSystem';
import { readerPathOf } from '../machines/readerSystem/readerSystem.rules';
import { narrationActor, playbackActor, wordClipActor } from './audioActors';

import { PassageCache, passageLoadActor } from './passageCache';
import type { ApiPort, AudioPort, EnginePorts, LoggerPort, NavigationPort } from './ports';
import type { SettingsStore } from './settings';

/** A call the api port may leave out: without it the load fails as 'not found', and the machine degrades. */
function optional<A extends unknown[], R>(call: ((...args: A) => Promise<R>) | undefined): (...args: A) => Promise<R> {
  return call ?? (() => Promise.reject(new PortFailure('not_found', 404, 'Not available')));
}

/** Split an address into its path and its query string (without the `?`). */
function splitQuery(address: string): [string, string] {
  const at = address.indexOf('?');
  return at < 0 ? [address, ''] : [address.slice(0, at), address.slice(at + 1)];
}

/** Replace the address's path or query, keeping the rest, when it differs. */
function replaceAddress(navigation: NavigationPort | undefined, change: (path: string, query: string) => string) {
  if (!navigation) return;
  const [path, query] = splitQuery(navigation.current());
  const next = change(path, query);
  if (next !== navigation.current()) navigation.replace(next);
}

const queryString = (params: URLSearchParams) => params.toString().replace(/%3A/gi, ':').replace(/%2C/gi, ',');

function audioEffects(audio: AudioPort | undefined) {
  return {
    /** `upTo`: the new audio goes on where the port was, at most at this second (a narration's head, then the whole). */
    load: (url: string | null, upTo: number | null = null) => {
      const at = upTo === null ? 0 : Math.min(audio?.currentTime() ?? 0, upTo);
      audio?.pause();
      audio?.load(url);
      if (at > 0) audio?.seek(at);
    },
    seek: (seconds: number) => audio?.seek(seconds),
    rate: (rate: number) => audio?.setRate(rate),
  };
}

function listenFlow(api: ApiPort, ports: EnginePorts, logger: LoggerPort) {
  const audio = audioEffects(ports.listenAudio);
  const getAudioOnly = optional(api.getAudioOnly);
  return readerSystemChildren.listenFlow.provide({
    actors: {
      loadNarration: narrationActor((input) => getAudioOnly(input.editionId, input.position), ports.clock),
      playback: playbackActor(ports.listenAudio, ports.clock, logger),
    },
    actions: {
      loadAudio: (_, params) => audio.load(params.url),
      seekAudio: (_, params) => audio.seek(params.seconds),
      pushAddress: (_, params) => ports.navigation?.push(params.path),
      logError: (_, params) => logger.error(params.message, params.error),
    },
  });
}

/** The root machine with its actors and effects provided from the ports. */
export function provideReaderSystem(ports: EnginePorts, settings: SettingsStore, logger: LoggerPort) {
  const { api, clock, navigation } = ports;
  const cache = new PassageCache(api);
  const audio = audioEffects(ports.audio);
  const getPassageAudio = optional(api.getPassageAudio);
  return readerSystemMachine.provide({
    actors: {
      listenFlow: listenFlow(api, ports, logger),
      loadPublication: fromPromise(({ input }) => api.getPublication(input.slug, input.version)),
      column: readerSystemChildren.column.provide({
        actors: {
          loadPassage: passageLoadActor(cache),
          createEdition: fromPromise(({ input }) => optional(api.createEdition)(input.slug, input.body)),
          loadDecodedText: fromPromise(({ input }) => optional(api.getDecodedText)(input.passageId, input.editionId, input.position)),
        },
        actions: {
          prefetchNeighbours: (_, request) => cache.prefetchNeighbours(request.editionId, request.position, request.passageCount),
          cachePassage: (_, params) => cache.update(params.passage),
          logError: (_, params) => logger.error(params.message, params.error),
        },
      }),
      access: readerSystemChildren.access.provide({
        actors: { checkVisitor: fromPromise(({ input }) => optional(api.getVisitor)({ groupCode: input.code })) },
      }),
      player: readerSystemChildren.player.provide({
        actors: {
          loadNarration: narrationActor((input) => getPassageAudio(input.passageId, input.editionId), clock),
          playback: playbackActor(ports.audio, clock, logger),
        },
        actions: {
          loadReaderAudio: (_, params) => {
            audio.load(params.url, params.upTo);
            audio.rate(params.rate);
          },
          setReaderAudioRate: (_, params) => audio.rate(params.rate),
          seekReaderAudio: (_, params) => audio.seek(params.seconds),
          showSpeedsInAddress: (_, params) =>
            replaceAddress(navigation, (path, query) => {
              const search = new URLSearchParams(query);
              if (!search.has('playbackSpeed')) return withQuery(path, query);
              search.set('playbackSpeed', formatPlaybackSpeedParam(params.speeds));
              return withQuery(path, queryString(search));
            }),
          logError: (_, params) => logger.error(params.message, params.error),
        },
      }),
      roleModal: readerSystemChildren.roleModal.provide({
        actors: { updateRole: fromPromise(({ input }) => optional(api.updateRole)(input.role)) },
        actions: { logRoleUpdateFailed: (_, params) => logger.error(params.message, params.error) },
      }),
      copyLink: readerSystemChildren.copyLink.provide({
        actors: { copyText: fromPromise(({ input }) => optional(ports.clipboard?.writeText)(input.text)) },
      }),
      wordAudio: readerSystemChildren.wordAudio.provide({
        actors: {
          loadNarration: narrationActor((input) => getPassageAudio(input.passageId, input.editionId), clock),
          sayClip: wordClipActor(ports.wordAudio, clock, logger),
        },
      }),
    },
    actions: {
      persist: (_, write) => settings.set(write.name, write.value),
      track: (_, params) => {
        try {
          ports.analytics.track(params.event, params.properties);
        } catch (error) {
          logger.warn('Analytics send failed', error);
        }
      },
      // The query string (playbackSpeed, …) belongs to other rules: keep it.
      showReaderPath: (_, params) => {
        const path = readerPathOf(params.view);
        if (path) replaceAddress(navigation, (_path, query) => withQuery(path, query));
      },
      readAddressSpeeds: ({ system }) =>
        system.get('player')?.send({ type: 'address.speeds', param: new URLSearchParams(splitQuery(navigation?.current() ?? '')[1]).get('playbackSpeed') }),
      leaveToCatalog: (_, params) => navigation?.replace(params.classroom ? paths.classroomCatalog : paths.catalog),
      removeCodeFromAddress: () =>
        replaceAddress(navigation, (path, query) => {
          const params = new URLSearchParams(query);
          params.delete('groupCode');
          return withQuery(path, params.toString());
        }),
    },
  });
}
