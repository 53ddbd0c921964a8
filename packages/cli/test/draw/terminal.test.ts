// The one escape every text oz0 prints passes: nothing a plugin wrote can steer the terminal.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forTerminal } from "../../src/draw/index.js";
import { terminalControls } from "../run-cli.js";

describe("forTerminal", () => {
  it("shows escape sequences, C1 controls, carriage returns and bidi overrides as escapes", () => {
    expect(forTerminal("a\u001b[2Jb")).toBe("a\\u001b[2Jb");
    expect(forTerminal("\u001b]0;owned\u0007")).toBe("\\u001b]0;owned\\u0007");
    expect(forTerminal("x\u009b31m")).toBe("x\\u009b31m");
    expect(forTerminal("safe\rover")).toBe("safe\\u000dover");
    expect(forTerminal("\u202egnp.exe \u2066i\u2069")).toBe("\\u202egnp.exe \\u2066i\\u2069");
    expect(forTerminal("bell\u0007 del\u007f nul\u0000")).toBe("bell\\u0007 del\\u007f nul\\u0000");
  });

  it("keeps tabs, newlines and every printable character as they are", () => {
    expect(forTerminal("a\tb\nc · → é 日本 🙂")).toBe("a\tb\nc · → é 日本 🙂");
  });

  it("leaves nothing a terminal acts on, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(terminalControls(forTerminal(text))).toEqual([]);
      }),
    );
  });
});
