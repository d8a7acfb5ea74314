/** What a {@link HeartbeatClock} ticks: one open stream. */
export interface HeartbeatMember {
  /** Called once per period while the member is on the clock. */
  heartbeatTick(): void;
}

/**
 * One timer per heartbeat period for every open stream, instead of a timer per stream.
 * Why: an idle stream lives for minutes or hours; a `setTimeout` per stream is a Timeout
 * object and a bound callback each (about 180 bytes), and a server holding 10,000 idle
 * streams is mostly idle streams. A member costs a set entry here; the clock's timer runs only
 * while it has members and never keeps the process alive.
 *
 * The phase is the clock's, not the stream's: a member that joins just before a tick gets its
 * first tick at once, so members count "a period with no write" from the tick after joining
 * (see `BoundedWriter`), which keeps the promise of a ping after one to two quiet periods.
 */
export class HeartbeatClock {
  private readonly members = new Set<HeartbeatMember>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly periodMs: number) {}

  join(member: HeartbeatMember): void {
    this.members.add(member);
    if (this.timer) return;
    this.timer = setInterval(() => this.tick(), this.periodMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  leave(member: HeartbeatMember): void {
    this.members.delete(member);
    if (this.members.size > 0 || !this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Members on the clock (tests). */
  get size(): number {
    return this.members.size;
  }

  private tick(): void {
    for (const member of [...this.members]) member.heartbeatTick();
  }
}

/** The process-wide clocks, one per period in use (a server uses one or two periods). */
const clocks = new Map<number, HeartbeatClock>();

/** The shared clock of `periodMs`. */
export function heartbeatClock(periodMs: number): HeartbeatClock {
  let clock = clocks.get(periodMs);
  if (!clock) {
    clock = new HeartbeatClock(periodMs);
    clocks.set(periodMs, clock);
  }
  return clock;
}
