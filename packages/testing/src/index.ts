/**
 * @a2a-polyglot/testing — helpers every package's tests share, kept in one place so there is
 * one rule for each: wait on a condition, never on a clock ({@link waitFor}); run the durable
 * suites against real services, skip them loudly without those locally, fail them under CI
 * ({@link describeWithServices}). Test-only: no package's runtime code imports it.
 */
export { eventually, waitFor, waitForSteady, type WaitForOptions, type WaitForSteadyOptions } from './wait-for.js';
export {
  describeWithServices,
  describeWithPostgres,
  describeWithRedis,
  describeWithPostgresAndRedis,
  planSuite,
  probeService,
  underCi,
  type SuitePlan,
  uniqueName,
  POSTGRES_URL,
  REDIS_URL,
  type TestService,
} from './service-suites.js';
export { type JwksMisbehaviour, TestIdentityProvider, type TestSigningKey } from './identity-provider.js';
export { testAgentCard } from './agent-card.js';
export { userSend, type UserSendOptions } from './send-request.js';
export { Gate, Gates } from './gates.js';
export {
  scriptedAgent,
  SCRIPTED_FAILURE_DETAIL,
  SCRIPTED_INPUT_QUESTION,
  type ScriptedAgent,
  type ScriptedAgentContext,
} from './scripted-agent.js';
export { fixedSpanObserver } from './span-observer.js';
export { captureOutput, type CapturedOutput } from './capture-output.js';
export { CHROMIUM_PATH, describeWithChromium, launchHeadlessChromium, type HeadlessChromium } from './chromium.js';
export { recordingLogger, type LogLevelName, type LogLine, type RecordingLogger } from './recording-logger.js';
export { grpcFrame, rawGrpcCall, type RawGrpcAnswer } from './raw-grpc.js';
export { makeTestPki, type TestKeyPair, type TestPki, type TestSubjectAttribute } from './test-pki.js';
export { runReadmeExample, type ReadmeExampleOptions } from './readme-example.js';
export { ReadySource, type ReadyEvent, type ReadySourceOptions } from './ready-source.js';
export { TurnProbe } from './turn-probe.js';
export { sdkCardSignature, type SdkCardAnswer, type SdkCardRequest } from './sdk-card-signature.js';
export { failsAfterFirstEvent, type SourcedEvent } from './failing-stream.js';
export { EndlessSource } from './endless-source.js';
export { type ReceivedWebhook, webhookReceiver, type WebhookReceiverHandle } from './webhook-receiver.js';
export { bindingHandlerOptions, type BindingHandlerOptions, bindingTestCard, RecordingPushSender, sendMessageJson, TEST_EXTENSION } from './binding-agent.js';
export { readSseEvents, type SseEvent, type SseRead } from './read-sse-events.js';
export { type JsonAnswer, readJsonAnswer } from './json-answer.js';
export { clientRequest } from './client-request.js';
