// The part of js-yaml (4.x) the chart checks use.
declare module 'js-yaml' {
  export function loadAll(text: string): unknown[];
}
