// Text for a terminal. What plugins, MCP servers and models write (descriptions, tool results,
// answers) reaches the terminal through oz0, and a terminal acts on control characters: an
// escape sequence can recolour, move the cursor, retitle the window or clear the screen, a
// carriage return can draw over a line, and a bidi override can make text read other than it
// is. Every text oz0 prints passes `forTerminal`, which shows such characters as escapes.

/**
 * Every character a terminal would act on rather than print: C0 controls but tab and newline,
 * DEL, C1 controls, and the bidi embeddings, overrides, isolates and marks.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is its purpose.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The text with each character a terminal would act on written as its `\uXXXX` escape, so
 * an escape sequence shows as text and does nothing. Tabs and newlines stay.
 * @example forTerminal("\u001b[2Jhi") // "\\u001b[2Jhi"
 */
export function forTerminal(text: string): string {
  return text.replace(UNSAFE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
