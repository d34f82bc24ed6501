/**
 * The headless reader engine: the reader system (src/machines/readerSystem) run as one actor system on the
 * engine's ports. It provides the system's actors and effects from the ports (systemIo.ts), starts the root
 * actor on the engine's clock, and exposes one small surface: start, send, getSnapshot, subscribe, stop, and the
 * children a view talks to (getChild, by systemId). It runs
 * in a browser, in plain Node and in tests; it never touches window, document, localStorage, fetch or Date.now.
 */
import { createActor, type Actor, type ActorRefFrom } from 'xstate';
import { ENGINE_SETTINGS, type StoredSettings } from '../domain/settings';
import type { readerSystemMachine, ReaderSystemEvent } from '../machines/readerSystem';
import type { EnginePorts, LoggerPort } from './ports';
import { createSettingsStore, type SettingsStore } from './settings';
import { createSnapshotComposer, type ReaderChildMachines, type ReaderEngineSnapshot } from './snapshot';
import { provideReaderSystem } from './systemIo';

export type { ReaderEngineSnapshot, ReaderPlayerView, SlotView, ReaderAudioStatus } from './snapshot';

type ChildActors = { [K in keyof ReaderChildMachines]: ActorRefFrom<ReaderChildMachines[K]> };
/**
 * The children a view sends to directly, by their systemId: a view sends its events to the child it shows. An
 * interface, so that one indexed by a generic systemId is still an actor (a mapped type's would stay unresolved).
 */
export interface ReaderEngineChildren extends ChildActors {}

/** The events the child with this systemId takes. */
export type ReaderEngineChildEvent<K extends keyof ReaderEngineChildren> = Parameters<ReaderEngineChildren[K]['send']>[0];

/** Every event the engine's `send` accepts: the ones the root handles (the children's go to `getChild(systemId)`). */
export type ReaderEngineEvent = ReaderSystemEvent;

export interface ReaderEngine {
  start(): void;
  send(event: ReaderEngineEvent): void;
  getSnapshot(): ReaderEngineSnapshot;
  subscribe(listener: () => void): () => void;
  stop(): void;
  /** The reader audio's exact time in seconds, read from the audio port (for a highlight loop per animation frame). */
  getAudioTime(): number;
  /** A child of the running system by its systemId, for a view to send its events to; undefined before start. */
  getChild<K extends keyof ReaderEngineChildren>(systemId: K): ReaderEngineChildren[K] | undefined;
}

const silentLogger: LoggerPort = { error: () => {}, warn: () => {} };

/** The stored settings, each read (validated, migrated) once. */
function readSettings(store: SettingsStore): StoredSettings {
  return Object.fromEntries(ENGINE_SETTINGS.map((name) => [name, store.get(name)])) as StoredSettings;
}

export function createReaderEngine(ports: EnginePorts): ReaderEngine {
  const logger = ports.logger ?? silentLogger;
  const settings = createSettingsStore(ports.storage, (message) => logger.warn(message));
  const machine = provideReaderSystem(ports, settings, logger);
  const listeners = new Set<() => void>();
  const compose = createSnapshotComposer();
  let actor: Actor<typeof readerSystemMachine> | null = null;
  let shown: ReaderEngineSnapshot | null = null;
  /** The root is taking an event: its children's new snapshots wait for the root's. */
  let rootBusy = false;
  /** Listeners hear of a change only when the composed snapshot is a new one: an event that changed nothing (most audio ticks) is silent. */
  const notify = () => {
    const next = actor ? compose(actor.getSnapshot()) : null;
    if (next === shown) return;
    shown = next;
    listeners.forEach((listener) => listener());
  };

  const running = (call: string) => {
    if (!actor) throw new Error(`Call engine.start() before engine.${call}()`);
    return actor;
  };

  return {
    start() {
      if (actor) return;
      actor = createActor(machine, {
        input: { settings: readSettings(settings) },
        clock: ports.clock,
        // Any actor of the system with a new snapshot (the root or a child) may change what the views show. What the
        // root sends its children while it takes an event is delivered before its own snapshot: listeners hear once,
        // when the root has one, so they never see a child ahead of the root or of a sibling told later.
        inspect: (event) => {
          const isRoot = event.actorRef === actor;
          if (isRoot && event.type === '@xstate.event') rootBusy = true;
          if (event.type !== '@xstate.snapshot') return;
          if (isRoot) rootBusy = false;
          if (!rootBusy) notify();
        },
      });
      actor.subscribe({ error: (error) => logger.error('Machine error', error) });
      actor.start();
    },
    send: (event) => running('send').send(event),
    getSnapshot: () => compose(running('getSnapshot').getSnapshot()),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop() {
      actor?.stop();
      actor = null;
      shown = null;
      listeners.clear();
    },
    getChild: (systemId) => actor?.system.get(systemId),
    getAudioTime: () => (actor?.system.get('player')?.getSnapshot().context.loadedKey ? (ports.audio?.currentTime() ?? 0) : 0),
  };
}
