import { describe, expect, it } from 'vitest';
import { RequestGone } from '../src/pool.js';

describe('a request whose client has gone (RequestGone)', () => {
  it('calls each listener once, at the first abort, and never one removed or added after it', () => {
    const gone = new RequestGone();
    const calls: string[] = [];
    const removed = () => calls.push('removed');
    gone.addEventListener('abort', () => calls.push('a'));
    gone.addEventListener('abort', removed);
    gone.addEventListener('abort', () => calls.push('b'));
    gone.removeEventListener('abort', removed);
    expect(gone.aborted).toBe(false);
    gone.abort();
    gone.abort();
    gone.addEventListener('abort', () => calls.push('late'));
    expect(gone.aborted).toBe(true);
    expect(calls).toEqual(['a', 'b']);
  });
});
