/**
 * @a2a-polyglot/inspector — a browser page to look at an A2A agent: its card and what is wrong
 * with it, a composer, a live view of a task's events and artifacts, and the task list. The
 * page uses @a2a-polyglot/client (WebSocket by default, JSON-RPC + SSE or REST as the card
 * offers). This entry point is the Node side: the route that serves the page (the executor
 * mounts it at `/inspector`) and the page's files.
 */
export { inspectorRoute, INSPECTOR_PATH, type InspectorRoute } from './serve.js';
export { loadInspectorAssets, type InspectorAssets } from './assets.js';
