// PEP 440 pre-releases: a version with an a/b/rc (alpha, beta, c, pre, preview) or dev segment.
// Post-releases and local versions are final releases.

/** The canonical PEP 440 version pattern (from the `packaging` project), anchored, case-insensitive. */
const PEP440 = new RegExp(
  "^\\s*v?(?:(?:[0-9]+!)?[0-9]+(?:\\.[0-9]+)*" +
    "(?<pre>[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)[-_.]?[0-9]*)?" +
    "(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?" +
    "(?<dev>[-_.]?dev[-_.]?[0-9]*)?)" +
    "(?:\\+[a-z0-9]+(?:[-_.][a-z0-9]+)*)?\\s*$",
  "i",
);

/** Legacy (non-PEP 440) versions: a pre-release marker right after a digit, or a dev marker anywhere. */
const LEGACY_PRE = /\d[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview)(?:[-_.]?\d|$)|dev/i;

export function isPreRelease(version: string): boolean {
  const match = PEP440.exec(version);
  if (match) return match.groups?.pre !== undefined || match.groups?.dev !== undefined;
  return LEGACY_PRE.test(version);
}
