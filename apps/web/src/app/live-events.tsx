/** The organisation's live events keep every open page current (filled in with the event stream). */
export function LiveEvents() {
  return null;
}
