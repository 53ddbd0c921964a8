import { describe, expect, it } from "vitest";
import { closestWord, editDistance } from "../../src/text/index.js";

describe("did-you-mean suggestions", () => {
  it("measures edits between words", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });

  it("suggests the closest known word when it is close", () => {
    expect(closestWord("instruction", ["instructions", "input", "tools"])).toBe("instructions");
    expect(closestWord("Tags", ["tags", "tools"])).toBe("tags");
  });

  it("counts two neighbouring letters swapped as one edit, so a transposed key finds its word", () => {
    expect(editDistance("tgas", "tags")).toBe(1);
    expect(editDistance("ca", "abc")).toBe(3);
    expect(closestWord("tgas", ["tags", "tools", "name"])).toBe("tags");
    expect(closestWord("desrciption", ["description", "version"])).toBe("description");
  });

  it("suggests nothing when no known word is close", () => {
    expect(closestWord("wibble", ["name", "version"])).toBeUndefined();
    expect(closestWord("ab", ["xy"])).toBeUndefined();
  });
});
