export {
  CursorCodec,
  deriveCursorKey,
  MAX_CURSOR_LENGTH,
  SIGNATURES_KEPT,
  type CursorScope,
} from './cursor-codec';
export { KeysetCursorCodec, type KeysetPosition } from './keyset-cursor';
export { keysetAfter, keysetPage } from './keyset-page';
export { pageAsOneRow, type PageRowShape, type PageStatement } from './page-row';
