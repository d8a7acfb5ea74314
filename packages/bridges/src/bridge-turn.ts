import type { ExecutionContext } from '@a2a-polyglot/core';
import type { BridgeEnv } from './bridge.js';
import type { CommonSettings } from './common-settings.js';
import { turnSignal } from './deadline.js';
import { runTurn, TurnWriter } from './streaming-contract.js';

/** What one turn of an upstream bridge works with. */
export interface BridgeTurn {
  /** Writes the turn's answer the way the streaming contract wants it. */
  readonly writer: TurnWriter;
  /** Aborts on cancel or shutdown and when the run exceeds `maxRunMs`; pass it to upstream calls. */
  readonly signal: AbortSignal;
}

/**
 * Runs one turn of an upstream bridge the same way for every bridge: a {@link TurnWriter} in
 * the configured reply mode, a signal bounded by `maxRunMs`, and the failure half of the
 * contract ({@link runTurn}); the signal's timer is cleared whatever happens.
 */
export async function runBridgeTurn(
  ctx: ExecutionContext,
  bridge: string,
  env: BridgeEnv,
  settings: Pick<CommonSettings, 'replyMode' | 'maxRunMs'>,
  body: (turn: BridgeTurn) => Promise<void>,
): Promise<void> {
  const writer = new TurnWriter(ctx, { agentName: env.agentName, replyMode: settings.replyMode });
  const turn = turnSignal(ctx.signal, settings.maxRunMs, bridge);
  try {
    await runTurn(ctx, writer, { bridge, logger: env.logger, redactor: env.redactor }, () => body({ writer, signal: turn.signal }));
  } finally {
    turn.dispose();
  }
}

/** An `Authorization: Bearer` header when there is a token, else nothing (spread into request headers). */
export function bearerHeader(token: string | undefined): { authorization?: string } {
  return token ? { authorization: `Bearer ${token}` } : {};
}
