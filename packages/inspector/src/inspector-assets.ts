/**
 * The three files of the inspector page. In a file of its own so that the loader (assets.ts)
 * and the bundler (bundle.ts) can both name it without importing each other.
 */
export interface InspectorAssets {
  readonly html: string;
  readonly css: string;
  readonly js: string;
}
