/**
 * @a2a-polyglot/bench — the benchmark harness behind `npm run bench`. The entry point is
 * `main.ts`; these exports are the pieces worth reusing or testing on their own: the raw
 * load clients, the statistics, and the report renderer.
 */
export * from './stats.js';
export * from './config.js';
export { HttpResponseParser, type ResponseSink } from './load/http-response-parser.js';
export { RawHttpConnection, type HttpExchange } from './load/raw-http-client.js';
export { SseCounter } from './load/sse-counter.js';
export { H2GrpcConnection, type GrpcCallSink } from './load/h2-grpc-client.js';
export { encodeInteger, grpcRequestHeaderBlock } from './load/hpack-encode.js';
export { runClosedLoop, type LoopOptions, type LoopStats, type OpOutcome, type Slot } from './load/closed-loop.js';
export { runJob } from './load/load-main.js';
export { classifyA2aFrame } from './load/slots.js';
export { peekSessionFrame, SessionMux, SessionSlot, type SessionFrameKind } from './load/session-client.js';
export * from './load/job.js';
export { checkOutcome } from './load/checks.js';
export { parseAgentMode, agentModeText, type AgentMode } from './agents/agent-mode.js';
export { createOursBenchAgent } from './agents/ours-agent.js';
export { buildRequest, type Workload } from './requests.js';
export { TARGETS, targetById, type Target } from './targets.js';
export type * from './results.js';
export { summarizeCells, summarizeIdle, type CellSummary, type IdleSummary } from './report/aggregate.js';
export { evaluateGoals, type GoalRow } from './report/goals.js';
export { renderReport } from './report/render.js';
export { renderDurable } from './report/durable.js';
export { LONG_POLL_WAKE_GOAL_MS, renderLongPoll } from './report/long-poll.js';
export { fmtInt, fmtNum, fmtPct, fmtRatio, mdTable } from './report/format.js';
export { startRawHttpServer } from './servers/raw-http-server.js';
export { startOursServer, type OursStorage } from './servers/ours-server.js';
export { startRawGrpcServer, RAW_GRPC_STREAM, RAW_GRPC_UNARY } from './servers/raw-grpc-server.js';
export { durableUrls } from './scenarios/durable.js';
export { CORE_CASES, STREAM_CHUNKS, type CoreCase } from './core/cases.js';
export { measureCase, type CoreCaseFigures } from './core/measure.js';
export { ENCODE_CASES, ENCODERS, encodeSamples, type EncodeCase, type EncoderId, type EncodeSamples } from './core/encode-cases.js';
export { coreGoals, renderCore } from './report/core.js';
export { BINDING_ALLOWANCE_US, bindingBudgetGoals, bindingBudgetRows, renderBindingBudget, type BindingBudgetRow } from './report/binding-budget.js';
