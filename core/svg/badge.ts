// A badge in the shields.io "flat" style: a grey label on the left, a coloured message on the right, each as wide
// as its text in 11px Verdana plus padding, with a <title> and an aria-label for screen readers.
import { verdana11Width } from "./text-width.ts";
import { escapeXml } from "./xml.ts";

export interface BadgeOptions {
  label: string;
  message: string;
  /** Fill of the message side, a CSS colour such as "#4c1". */
  color: string;
  /** Fill of the label side; shields.io's grey by default. */
  labelColor?: string;
}

/** Height of a flat badge, in pixels. */
export const BADGE_HEIGHT = 20;
/** Space on each side of a text, in pixels (shields.io's). */
const PADDING = 5;
const LABEL_GREY = "#555";

/** The width of one side of a badge: its text rounded up to whole pixels, plus padding on both sides. */
export function badgeSideWidth(text: string): number {
  return Math.ceil(verdana11Width(text)) + 2 * PADDING;
}

/**
 * The badge as SVG text. Text is drawn at ten times the size and scaled by 0.1 (as shields.io does) so its position
 * keeps a tenth of a pixel; textLength pins each text to its measured width whatever font the viewer has.
 */
export function renderBadge(options: BadgeOptions): string {
  const { label, message, color } = options;
  const labelWidth = badgeSideWidth(label);
  const messageWidth = badgeSideWidth(message);
  const width = labelWidth + messageWidth;
  const title = escapeXml(`${label}: ${message}`);
  const text = (value: string, left: number, sideWidth: number) => {
    const x = (left + sideWidth / 2) * 10;
    const length = (sideWidth - 2 * PADDING) * 10;
    const shown = escapeXml(value);
    return (
      `<text aria-hidden="true" x="${x}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${length}">${shown}</text>` +
      `<text x="${x}" y="140" transform="scale(.1)" fill="#fff" textLength="${length}">${shown}</text>`
    );
  };
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${BADGE_HEIGHT}" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${width}" height="${BADGE_HEIGHT}" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)">` +
    `<rect width="${labelWidth}" height="${BADGE_HEIGHT}" fill="${escapeXml(options.labelColor ?? LABEL_GREY)}"/>` +
    `<rect x="${labelWidth}" width="${messageWidth}" height="${BADGE_HEIGHT}" fill="${escapeXml(color)}"/>` +
    `<rect width="${width}" height="${BADGE_HEIGHT}" fill="url(#s)"/>` +
    `</g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">` +
    text(label, 0, labelWidth) +
    text(message, labelWidth, messageWidth) +
    `</g></svg>`
  );
}
