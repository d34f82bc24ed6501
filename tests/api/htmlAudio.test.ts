/** The browser's audio adapter (src/adapters/browser.ts): a new source reaches the element behind the frame. */
import { describe, expect, it } from 'vitest';
import { createHtmlAudio, type FrameWindow } from '../../src/adapters/browser';

function fakeAudio() {
  const calls: string[] = [];
  const element = {
    src: '',
    paused: true,
    currentTime: 12,
    duration: 30,
    playbackRate: 1,
    defaultPlaybackRate: 1,
    removeAttribute: (name: string) => calls.push(`remove ${name}`),
    load: () => {
      calls.push(`load ${element.src}`);
      element.currentTime = 0;
      element.duration = NaN;
    },
    play: () => {
      calls.push('play');
      element.paused = false;
      return Promise.resolve();
    },
    pause: () => {
      calls.push('pause');
      element.paused = true;
    },
    addEventListener: () => {},
    removeEventListener: () => {},
  };
  const frames: (() => void)[] = [];
  const tasks: (() => void)[] = [];
  const win = { requestAnimationFrame: (cb: () => void) => frames.push(cb), setTimeout: (cb: () => void) => tasks.push(cb) } as unknown as FrameWindow;
  const run = (queue: (() => void)[]) => queue.splice(0).forEach((f) => f());
  const audio = createHtmlAudio(element as unknown as HTMLAudioElement, win);
  return { audio, element, calls, nextFrame: () => (run(frames), run(tasks)) };
}

describe('html audio', () => {
  it('loads the newest source once, after the frame, and answers for it meanwhile', () => {
    const a = fakeAudio();
    a.audio.load('/audio/2.mp3');
    a.audio.load('/audio/3.mp3');
    expect(a.calls).toEqual([]);
    expect(a.audio.currentTime()).toBe(0);
    expect(a.audio.duration()).toBe(0);
    a.nextFrame();
    expect(a.calls).toEqual(['load /audio/3.mp3']);
    a.element.duration = 41;
    expect(a.audio.duration()).toBe(41);
  });

  it('plays and seeks the new source: a waiting source is loaded first, at once', () => {
    const a = fakeAudio();
    a.audio.load('/audio/4.mp3');
    void a.audio.play();
    expect(a.calls).toEqual(['load /audio/4.mp3', 'play']);
    a.audio.load('/audio/5.mp3');
    a.audio.seek(7);
    expect(a.calls).toEqual(['load /audio/4.mp3', 'play', 'load /audio/5.mp3']);
    expect(a.element.currentTime).toBe(7);
    a.nextFrame();
    expect(a.calls).toHaveLength(3);
  });

  it('pauses a playing element, and leaves a paused one alone', () => {
    const a = fakeAudio();
    a.audio.pause();
    expect(a.calls).toEqual([]);
    void a.audio.play();
    a.audio.pause();
    expect(a.calls).toEqual(['play', 'pause']);
  });

  it('removes the source when told none, and keeps the speed across a load', () => {
    const a = fakeAudio();
    a.audio.setRate(1.5);
    a.audio.load(null);
    a.nextFrame();
    expect(a.calls).toEqual(['remove src', 'load ']);
    expect(a.element.defaultPlaybackRate).toBe(1.5);
  });
});
