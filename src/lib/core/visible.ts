/**
 * Text that came from a server or a store, made safe to show on a terminal.
 * A terminal acts on control characters: ESC starts sequences that retitle
 * the window or clear the screen, BEL rings, CR overwrites the line, and a
 * C1 character (U+0080-U+009F) can do what ESC does. Each such character is
 * shown instead in its escaped form, `\u001b`: visible, one character wide
 * per digit, and the same text a user can paste back into JSON or a shell's
 * `$'…'` to name the thing it belongs to.
 *
 * The bidirectional controls are shown the same way (U+061C, U+200E-U+200F,
 * U+202A-U+202E, U+2066-U+2069): a right-to-left override (U+202E) makes
 * the text after it display reversed, so a name could read as another one
 * (`exe.txt` shown for `txt.exe`), or a table row as something it is not.
 *
 * Backslashes are left as they are, so plain data (Windows paths, regular
 * expressions) is shown byte for byte; a literal `\u001b` in a value reads
 * the same as an escaped ESC, which is the price of that.
 */

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- as above, with tab, line feed and the Unicode line separators
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- as above
const LINE_BREAKINGS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const escaped = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Text with every control character but tab and line feed shown escaped (a block of lines stays a block). */
export const visible = (text: string): string => (CONTROL.test(text) ? text.replace(CONTROLS, escaped) : text);

/** Text as one line: tab, line feed and the Unicode line separators escaped too. */
export const oneLine = (text: string): string => (LINE_BREAKING.test(text) ? text.replace(LINE_BREAKINGS, escaped) : text);

/** A value with every string in it, keys included, made visible (for formats that show strings as they are). */
export function visibleValue(value: unknown): unknown {
  if (typeof value === 'string') return visible(value);
  if (Array.isArray(value)) return value.map(visibleValue);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a key such as `__proto__` stays a key.
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [visible(k), visibleValue(v)]));
}
