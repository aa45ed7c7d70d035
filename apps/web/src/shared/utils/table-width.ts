/**
 * The most a wide table may ask for before it scrolls inside itself (Table.ScrollContainer's
 * minWidth): what is left of a tablet (768 px, the navigation folded: 768 − 2 × 20 padding = 728)
 * and of the narrowest window that shows the navigation (992 px: 992 − 240 − 2 × 20 = 712).
 * Narrower than 768 px tables become lists (app.css), so no table scrolls sideways at any of the
 * sizes issue 31 §3 names (every-page.e2e-spec.ts).
 */
export const TABLE_MIN_WIDTH = 700;
