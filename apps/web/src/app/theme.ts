import {
  Alert,
  Anchor,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  Modal,
  Notification,
  parseThemeColor,
  type CSSVariablesResolver,
  type VariantColorsResolver,
} from '@mantine/core';

/**
 * Colours that keep WCAG AA contrast (4.5:1): in the light scheme, text of light, subtle and
 * outline variants in a darkened shade 9 (the dark scheme keeps Mantine's light shades, which
 * pass on its dark backgrounds: CSS light-dark() picks per scheme); filled backgrounds the same
 * darkened shade behind white text in both (the primary colour already uses shade 8, which passes).
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({
    color: input.color ?? input.theme.primaryColor,
    theme: input.theme,
  });
  if (!parsed.isThemeColor || parsed.shade !== undefined) return colors;
  // Shade 9, darkened a little: yellow, orange and green are light even at 9. Yellow the most:
  // at 0.2 its text on its own light background (an Alert's title) is 4.2:1, at 0.3 it is 5:1.
  const dark = darken(input.theme.colors[parsed.color][9], parsed.color === 'yellow' ? 0.3 : 0.2);
  if (input.variant === 'light' || input.variant === 'subtle' || input.variant === 'outline') {
    const text = `light-dark(${dark}, ${colors.color})`;
    return {
      ...colors,
      color: text,
      ...(input.variant === 'outline' ? { border: `1px solid ${text}` } : {}),
    };
  }
  if (input.variant === 'filled' && parsed.color !== input.theme.primaryColor) {
    return { ...colors, background: dark, hover: dark };
  }
  return colors;
};

export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 8: white text on the primary colour, and primary links on white, keep 4.5:1.
  primaryShade: 8,
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  focusRing: 'auto',
  variantColorResolver,
  components: {
    // Every close button says what it does.
    Modal: Modal.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close the dialog' } },
    }),
    Alert: Alert.extend({ defaultProps: { closeButtonLabel: 'Dismiss' } }),
    // Links in running text are told apart by more than their colour.
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // A titled notification draws its message in gray 6 / dark 2 (3.3:1 on white): dimmed keeps AA.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss the notification' } },
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    }),
  },
});

/** WCAG AA contrast (4.5:1 on the body, in both schemes) for secondary text, descriptions, errors and required marks. */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    '--mantine-color-error': t.colors.red[9],
    '--mantine-color-placeholder': t.colors.gray[6],
  },
  // On the dark body (dark 7), Mantine's dimmed (dark 2) is 4.1:1: dark 1 reads at 8:1.
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1],
    '--mantine-color-error': t.colors.red[5],
  },
});
