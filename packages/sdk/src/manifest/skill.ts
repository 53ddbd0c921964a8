// A skill's SKILL.md: YAML front matter (name, description) and a Markdown body that an agent
// reads with oz.skill. The front matter takes the Agent Skills format's optional `license`
// and `metadata` too, so skills written for other platforms load unchanged.
import * as z from "zod";
import { nameField, strictObject } from "./fields.js";

/** Limits of a skill's front matter, as in the Agent Skills format. */
export const SKILL_LIMITS = {
  /** Characters of `description`: it goes into every agent's start-up skill index. */
  maxDescription: 1024,
} as const;

export const skillFrontMatterSchema = z.lazy(() =>
  strictObject({
    name: nameField("skill"),
    description: z
      .string()
      .min(1, "a skill needs a description: agents choose skills by it")
      .max(
        SKILL_LIMITS.maxDescription,
        `a skill's description may be at most ${SKILL_LIMITS.maxDescription} characters`,
      ),
    license: z.string().optional(),
    metadata: z.record(z.string(), z.string()).optional(),
  }),
);
export type SkillFrontMatter = z.output<typeof skillFrontMatterSchema>;

/** A parsed SKILL.md. */
export interface SkillFile extends SkillFrontMatter {
  /** The Markdown after the front matter: what `oz.skill` returns. */
  readonly body: string;
}
