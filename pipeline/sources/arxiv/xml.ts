// A minimal XML reader for the arXiv Atom feed: elements with namespace-resolved names, attributes and
// text. Enough for well-formed, simple documents (no DTDs); anything else raises an error naming the offset.

export interface XmlElement {
  /** Namespace URI ("" when none) and local name, whatever prefix the document used. */
  ns: string;
  local: string;
  /** Attributes by name as written (prefixes kept; Atom's attributes are unprefixed). */
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The concatenated text directly inside this element, entities decoded. */
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return String.fromCodePoint(code);
    }
    return ENTITIES[name] ?? whole;
  });
}

const TOKEN =
  /<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|<\/([^\s>]+)\s*>|<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/gy;
const ATTR = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

interface Open {
  element: XmlElement;
  qname: string;
  scope: Record<string, string>;
}

function resolve(qname: string, scope: Record<string, string>): { ns: string; local: string } {
  const colon = qname.indexOf(":");
  if (colon < 0) return { ns: scope[""] ?? "", local: qname };
  return { ns: scope[qname.slice(0, colon)] ?? "", local: qname.slice(colon + 1) };
}

/** Parses a document and returns its root element. */
export function parseXml(source: string): XmlElement {
  const stack: Open[] = [];
  let root: XmlElement | undefined;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(source);
    if (!m) throw new Error(`Malformed XML at offset ${at}: ${JSON.stringify(source.slice(at, at + 40))}.`);
    const [, cdata, close, open, rawAttrs, selfClose, text] = m;
    const top = stack[stack.length - 1];
    if (cdata !== undefined || text !== undefined) {
      if (top) top.element.text += cdata ?? decodeEntities(text as string);
      else if ((text ?? cdata ?? "").trim() !== "")
        throw new Error(`Text outside the root element at offset ${at}.`);
    } else if (close !== undefined) {
      if (top?.qname !== close) throw new Error(`Unexpected </${close}> at offset ${at}.`);
      stack.pop();
    } else if (open !== undefined) {
      const attrs: Record<string, string> = {};
      for (const a of (rawAttrs ?? "").matchAll(ATTR))
        attrs[a[1] as string] = decodeEntities(a[2] ?? a[3] ?? "");
      const scope = { ...(top?.scope ?? {}) };
      for (const [name, value] of Object.entries(attrs)) {
        if (name === "xmlns") scope[""] = value;
        else if (name.startsWith("xmlns:")) scope[name.slice(6)] = value;
      }
      const element: XmlElement = { ...resolve(open, scope), attrs, children: [], text: "" };
      if (top) top.element.children.push(element);
      else if (root) throw new Error(`A second root element at offset ${at}.`);
      else root = element;
      if (selfClose !== "/") stack.push({ element, qname: open, scope });
    }
  }
  if (!root || stack.length > 0) throw new Error("Truncated XML: the root element is not closed.");
  return root;
}
