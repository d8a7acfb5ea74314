/**
 * Frames a streaming delivery loop hands to its sink before it lets the event loop turn once.
 * The pacing rule every streaming binding follows (WebSocket, SSE, gRPC stream and session),
 * applied in one place, the core's one delivery loop (`EventDelivery`):
 *
 * 1. Stop at once on a closing sink: the loop checks that the sink is open before each pull
 *    and before each frame. A sink that is closing (a WebSocket in CLOSING, a destroyed
 *    response, a cancelled call) drops writes without blocking, so a loop that kept going
 *    would never wait on anything again.
 * 2. Let the event loop turn at least every `DELIVERY_TURN_FRAMES` frames. A source whose
 *    events are all ready (a long replay, a fast agent) and a sink that takes every write at
 *    once never wait on I/O, so without this the loop runs in microtasks only: no timer,
 *    socket event or other client of the process runs until it ends, and together with rule 1
 *    broken, never (one such stream froze a whole test process at 100 % CPU, with its timers
 *    and inspector dead).
 *
 * Why 256: a turn (one `setImmediate`, the I/O poll in between) costs a few microseconds,
 * and a frame costs a few microseconds to encode and write, so a stream that never waits
 * pays well under 1 % for its turns, while it holds the thread for about a millisecond at
 * most: the close of its socket, timers and every other client get their turn. 256 ordinary
 * event frames (200-250 bytes) also fill about one 64 KiB write, the group size of the SSE and
 * WebSocket loops; a smaller number would cut those groups and multiply the writes (64 cost
 * SSE measurably more CPU per event). The gRPC writers' default bounds of unflushed messages
 * (16, 32) pause a stream more often anyway; the rule matters there with larger bounds.
 */
export const DELIVERY_TURN_FRAMES = 256;

/**
 * @internal One turn of the event loop: `setImmediate` where the runtime has it (Node, Bun, Deno), a
 * zero timeout elsewhere (Cloudflare Workers, browsers), which also runs after pending I/O.
 */
export const nextTurn: (resolve: () => void) => void =
  typeof setImmediate === 'function' ? (resolve) => setImmediate(resolve) : (resolve) => setTimeout(resolve, 0);
