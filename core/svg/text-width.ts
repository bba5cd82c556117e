// The width of a line of text in 11px Verdana, measured from a table of advance widths as shields.io measures its
// badges (its anafanafo tables): no font is loaded, so a badge's width is the same on every machine that renders it.

/**
 * Advance widths in pixels of the printable ASCII characters, space (32) to tilde (126), in 11px Verdana.
 * Verdana's metrics are facts of the font (Microsoft's), listed here once.
 */
const ASCII_WIDTHS: readonly number[] = [
  // space ! " # $ % & ' ( ) * + , - . /
  3.87, 4.33, 5.05, 9, 6.99, 11.84, 7.99, 2.95, 5, 5, 6.99, 9, 4, 5, 4, 5,
  // 0-9
  6.99, 6.99, 6.99, 6.99, 6.99, 6.99, 6.99, 6.99, 6.99, 6.99,
  // : ; < = > ? @
  5, 5, 9, 9, 9, 6, 11,
  // A-Z
  7.52, 7.54, 7.68, 8.48, 6.96, 6.32, 8.53, 8.27, 4.63, 5, 7.62, 6.12, 9.27, 8.23, 8.66, 6.63, 8.66, 7.65,
  7.52, 6.78, 8.05, 7.52, 10.88, 7.54, 6.77, 7.54,
  // [ \ ] ^ _ `
  5, 5, 5, 9, 6.99, 6.99,
  // a-z
  6.61, 6.85, 5.73, 6.85, 6.55, 3.87, 6.85, 6.96, 3.02, 3.79, 6.51, 3.02, 10.7, 6.96, 6.68, 6.85, 6.85, 4.69,
  5.73, 4.33, 6.96, 6.51, 9, 6.51, 6.51, 5.78,
  // { | } ~
  6.98, 5, 6.98, 9,
];

/** Characters outside printable ASCII count as wide as "M": a badge may then be a little loose, never clipped. */
const FALLBACK_WIDTH = 9.27;

/** The width in pixels of `text` set in 11px Verdana (no kerning, as shields.io counts it). */
export function verdana11Width(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    width += code >= 32 && code <= 126 ? (ASCII_WIDTHS[code - 32] as number) : FALLBACK_WIDTH;
  }
  return width;
}
