/**
 * The status line in process, on a pretend terminal and off it: what stays on stderr (the
 * task id, the state lines of a log) and what only flickers by (the live indicator), and that
 * nothing on stderr is glued to an answer line still being written on stdout.
 */
import { PassThrough } from 'node:stream';
import type { Io } from '../src/io.js';
import { StatusLine } from '../src/render.js';

/** An Io whose streams record what was written; `tty` makes stdout and stderr terminals. */
function fakeIo(tty: boolean): { io: Io; out: () => string; err: () => string } {
  const record = () => {
    const stream = Object.assign(new PassThrough(), { isTTY: tty, text: '' });
    stream.on('data', (chunk: Buffer) => (stream.text += chunk.toString()));
    return stream;
  };
  const stdout = record();
  const stderr = record();
  return { io: { stdout, stderr, stdin: new PassThrough(), env: {} }, out: () => stdout.text, err: () => stderr.text };
}

/** What a terminal shows once every `\r\x1b[2K` (erase the line) has done its work. */
function screen(text: string): string {
  return text
    .split('\n')
    .map((line) => line.split('\r\x1b[2K').at(-1))
    .join('\n');
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

it('on a terminal: the id line stays, states only flicker on the live line, nothing glued to the answer', async () => {
  const { io, out, err } = fakeIo(true);
  const status = new StatusLine(io, true);
  status.note('task 1f2e3d4c-0000-4000-8000-000000000000');
  status.set('submitted');
  status.around(() => io.stdout.write('Echo: hel'), true);
  status.note('a line that must wait');
  status.set('working: Echoing');
  status.around(() => io.stdout.write('lo\n'), false);
  status.stop();
  await flush();
  expect(out()).toBe('Echo: hello\n');
  expect(screen(err())).toBe('a2a: task 1f2e3d4c-0000-4000-8000-000000000000\na2a: a line that must wait\n');
  expect(err()).toContain('working: Echoing');
});

it('off a terminal: one line per state change, held back while the answer line is open', async () => {
  const { io, err } = fakeIo(false);
  const status = new StatusLine(io, true);
  status.set('submitted');
  status.set('submitted');
  status.set('sending', false);
  status.around(() => io.stdout.write('Echo: hel'), true);
  status.set('working');
  await flush();
  expect(err()).toBe('a2a: submitted\n');
  status.around(() => io.stdout.write('lo\n'), false);
  await flush();
  expect(err()).toBe('a2a: submitted\na2a: working\n');
});
